package dev.troupe.cluster.routing;

import dev.troupe.actor.Props;
import dev.troupe.routing.BalancingPool;
import dev.troupe.routing.Pool;
import java.util.Objects;

/**
 * A pool whose routees are deployed onto the cluster's members, built in code: the local pool's
 * kind (round-robin, consistent hashing, ...) and supervisor strategy with the members given by
 * the settings. The same router as a deployment section with {@code cluster.enabled = on} (see
 * {@code docs/cluster-routers.md}); a section at the router's path with {@code cluster.enabled =
 * on} wins over these settings.
 *
 * <pre>{@code
 * ActorRef workers = system.actorOf(
 *     new ClusterRouterPool(new RoundRobinPool(1), new ClusterRouterPoolSettings(100, 3, false, Set.of("worker")))
 *         .props(Props.create(Worker.class)),
 *     "workers");
 * }</pre>
 *
 * <p>The local pool's {@code nrOfInstances} does not apply (the members decide; any valid size will do), and it must have
 * no resizer and be no {@link BalancingPool}. The routee class must be accepted for remote
 * deployment on the members ({@code troupe.remote.deployment}).
 */
public final class ClusterRouterPool {
  private final Pool local;
  private final ClusterRouterPoolSettings settings;

  /**
   * @param local the routing logic, supervisor strategy and router dispatcher
   * @param settings where the routees go
   * @throws IllegalArgumentException if {@code local} has a resizer or is a balancing pool
   */
  public ClusterRouterPool(Pool local, ClusterRouterPoolSettings settings) {
    this.local = Objects.requireNonNull(local, "local");
    this.settings = Objects.requireNonNull(settings, "settings");
    if (local instanceof BalancingPool) {
      throw new IllegalArgumentException("a balancing pool cannot be cluster-aware: its routees share one mailbox,"
          + " which cannot span nodes");
    }
    if (local.resizer() != null) {
      throw new IllegalArgumentException("a cluster-aware pool has no resizer: its size follows the members"
          + " (maxInstancesPerNode, totalInstances)");
    }
  }

  /** @return the local pool */
  public Pool local() {
    return local;
  }

  /** @return where the routees go */
  public ClusterRouterPoolSettings settings() {
    return settings;
  }

  /**
   * @param routeeProps how a routee is made
   * @return the router's props, for {@code actorOf}
   */
  public Props props(Props routeeProps) {
    return Objects.requireNonNull(routeeProps, "routeeProps").withRouter(local).withDeploy(settings.deploy());
  }

  @Override
  public String toString() {
    return "ClusterRouterPool(" + local + ", " + settings + ")";
  }
}
