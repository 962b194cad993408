package dev.troupe.cluster.singleton;

import dev.troupe.actor.Props;
import dev.troupe.cluster.internal.singleton.ManagerActor;

/**
 * Runs one actor in the whole cluster: the singleton, on the oldest {@code Up} member with the
 * settings' role. Start a manager with the same name on every member (or on every member with the
 * role); the one on the oldest member runs the singleton as its child, named {@link
 * ClusterSingletonManagerSettings#singletonName()}:
 *
 * <pre>{@code
 * system.actorOf(ClusterSingletonManager.props(Props.create(Boss.class), PoisonPill.getInstance(),
 *     ClusterSingletonManagerSettings.create(system)), "boss");
 * }</pre>
 *
 * <p>When the oldest member leaves gracefully, its instance is sent {@code terminationMessage} and
 * must stop; only when it has stopped does the next oldest member start its instance (the managers
 * hand the singleton over, asking every {@code hand-over-retry-interval}). When the oldest member
 * crashes, the next one starts its instance only once the crashed member is removed from the
 * cluster (downed). So, while the members agree on the membership, two instances never run at
 * once. Reach the singleton through a {@link ClusterSingletonProxy}, which follows it as it moves.
 *
 * <p>The manager needs the cluster: created on an actor system without it, it fails when it starts
 * ({@link IllegalStateException}, logged by its supervisor).
 */
public final class ClusterSingletonManager {
  private ClusterSingletonManager() {}

  /**
   * @param singletonProps how the singleton is created
   * @param terminationMessage what the running instance is sent when the singleton moves to another
   *     member (e.g. {@code PoisonPill.getInstance()}); the instance must stop after it
   * @param settings the manager's settings
   * @return props of a manager, to start under the same name on every member
   */
  public static Props props(Props singletonProps, Object terminationMessage, ClusterSingletonManagerSettings settings) {
    return ManagerActor.props(singletonProps, terminationMessage, settings, null);
  }
}
