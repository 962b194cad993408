package dev.troupe.cluster.singleton.typed;

import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.cluster.singleton.ClusterSingletonManager;
import dev.troupe.cluster.singleton.ClusterSingletonManagerSettings;
import dev.troupe.cluster.singleton.ClusterSingletonProxy;
import dev.troupe.cluster.singleton.ClusterSingletonProxySettings;
import dev.troupe.cluster.sharding.typed.internal.PerSystem;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Typed cluster singletons: one instance of a behaviour in the whole cluster, on the oldest {@code
 * Up} member with the singleton's role, reached from any member through a typed ref that follows it
 * when it moves. The cluster's singleton manager and proxy ({@code dev.troupe.cluster.singleton})
 * run it, with their settings ({@code troupe.cluster.singleton}) and guarantees: a graceful
 * hand-over loses no message sent through the ref; while the singleton moves, messages wait in the
 * proxy (at most {@code troupe.cluster.singleton.proxy.buffer-size}).
 *
 * <pre>{@code
 * ActorRef<Boss.Command> boss = ClusterSingleton.get(system).init(SingletonActor.of(Boss.create(), "boss"));
 * boss.tell(new Boss.Assign(task));
 * }</pre>
 *
 * <p>{@link #init} starts, under {@code /user}, a manager ({@code singleton-manager-<name>}) and a
 * proxy ({@code singleton-proxy-<name>}) on this member; call it on every member that may run the
 * singleton. The system must be a cluster member: the manager and proxy fail when they start
 * elsewhere.
 */
public final class ClusterSingleton {
  private static final PerSystem<ClusterSingleton> BY_SYSTEM = new PerSystem<>(ClusterSingleton::new);

  private final dev.troupe.actor.ActorSystem system;
  private final Map<String, dev.troupe.actor.ActorRef> proxies = new HashMap<>(); // guarded by this

  private ClusterSingleton(dev.troupe.actor.ActorSystem system) {
    this.system = system;
  }

  /**
   * @param system a typed actor system
   * @return its singletons; the same instance on every call while the system lives
   */
  public static ClusterSingleton get(ActorSystem<?> system) {
    return get(Adapter.toClassic(Objects.requireNonNull(system, "system")));
  }

  /**
   * @param system a classic actor system (one that runs typed actors through {@code Adapter})
   * @return its singletons
   */
  public static ClusterSingleton get(dev.troupe.actor.ActorSystem system) {
    return BY_SYSTEM.get(system);
  }

  /**
   * Starts this member's manager and proxy of the singleton (once per name: a second call returns
   * the same ref).
   *
   * @param singleton the singleton
   * @param <M> its protocol
   * @return a ref to the singleton wherever it runs (this member's proxy)
   */
  @SuppressWarnings("unchecked")
  public synchronized <M> ActorRef<M> init(SingletonActor<M> singleton) {
    Objects.requireNonNull(singleton, "singleton");
    dev.troupe.actor.ActorRef proxy = proxies.get(singleton.name());
    if (proxy == null) {
      String name = URLEncoder.encode(singleton.name(), StandardCharsets.UTF_8);
      ClusterSingletonManagerSettings managerSettings = ClusterSingletonManagerSettings.create(system);
      ClusterSingletonProxySettings proxySettings = ClusterSingletonProxySettings.create(system)
          .withSingletonName(managerSettings.singletonName());
      if (singleton.role().isPresent()) {
        managerSettings = managerSettings.withRole(singleton.role().get());
        proxySettings = proxySettings.withRole(singleton.role().get());
      } else {
        proxySettings = proxySettings.withRole(managerSettings.role());
      }
      Object stop = singleton.stopMessage().isPresent() ? singleton.stopMessage().get() : PoisonPill.getInstance();
      String manager = "singleton-manager-" + name;
      system.actorOf(ClusterSingletonManager.props(Adapter.props(singleton.behavior(), singleton.props()), stop,
          managerSettings), manager);
      proxy = system.actorOf(ClusterSingletonProxy.props("/user/" + manager, proxySettings), "singleton-proxy-" + name);
      proxies.put(singleton.name(), proxy);
    }
    return Adapter.toTyped(proxy);
  }
}
