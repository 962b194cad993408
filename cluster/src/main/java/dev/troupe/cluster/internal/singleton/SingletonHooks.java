package dev.troupe.cluster.internal.singleton;

import dev.troupe.actor.ActorSystem;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the public singleton props find their membership: the {@code Cluster} installs one {@link
 * SingletonMembership} per actor system when it starts ({@code internal.core.ClusterSingletonMembership}); a manager or proxy created from the public props looks it up when it starts.
 */
public final class SingletonHooks {
  private static final ConcurrentHashMap<ActorSystem, SingletonMembership> SOURCES = new ConcurrentHashMap<>();

  private SingletonHooks() {}

  /**
   * Installs the membership of {@code system}; it is forgotten when the system terminates.
   *
   * @param system an actor system
   * @param membership its membership as singletons see it
   */
  public static void install(ActorSystem system, SingletonMembership membership) {
    Objects.requireNonNull(membership, "membership");
    SOURCES.put(system, membership);
    system.getWhenTerminated().whenComplete((t, e) -> SOURCES.remove(system, membership));
  }

  /**
   * @param system an actor system
   * @return its installed membership, if any
   */
  public static Optional<SingletonMembership> membership(ActorSystem system) {
    return Optional.ofNullable(SOURCES.get(system));
  }

  static SingletonMembership require(ActorSystem system, String who) {
    return membership(system).orElseThrow(() -> new IllegalStateException(who + " needs the cluster:"
        + " actor system '" + system.name() + "' has none (set troupe.actor.provider = cluster, with"
        + " troupe-cluster on the class path)"));
  }
}
