package dev.troupe.routing;

import dev.troupe.actor.Directive;
import dev.troupe.actor.OneForOneStrategy;
import dev.troupe.actor.SupervisorStrategy;
import java.util.Objects;

/**
 * A router that creates its routees as its own children, from the props it was given. Routees are
 * supervised by the pool's {@link #supervisorStrategy()} (by default: escalate every failure to the
 * router's parent, whose strategy then decides for the router as a whole). A routee that stops is
 * removed; when the last one is gone the router stops itself. Stopping the router (e.g. with
 * {@code PoisonPill}) stops its routees.
 *
 * <p>With a {@link Resizer} the pool grows and shrinks with load: every {@code
 * messagesPerResize}-th routed message asks the router actor (asynchronously; senders never wait)
 * to compute a size change.
 *
 * <p>Immutable; {@code with…} methods return a new pool of the same kind.
 */
public abstract sealed class Pool extends RouterConfig
    permits RoundRobinPool,
        RandomPool,
        SmallestMailboxPool,
        BroadcastPool,
        ScatterGatherFirstCompletedPool,
        TailChoppingPool,
        ConsistentHashingPool,
        BalancingPool {

  /** The pools' default: escalate every failure of a routee to the router's parent. */
  static final SupervisorStrategy ESCALATE = new OneForOneStrategy(cause -> Directive.ESCALATE);

  /** The settings all pools share; package-private carrier for the copy methods. */
  record Common(
      int nrOfInstances, Resizer resizer, SupervisorStrategy supervisorStrategy, String routerDispatcher) {
    Common {
      positive(nrOfInstances, "nrOfInstances");
      Objects.requireNonNull(supervisorStrategy, "supervisorStrategy");
    }

    static Common of(int nrOfInstances) {
      return new Common(nrOfInstances, null, ESCALATE, null);
    }
  }

  final Common common;

  Pool(Common common) {
    this.common = common;
  }

  /** A copy of this pool with other common settings. */
  abstract Pool copy(Common c);

  /** @return how many routees the pool starts with */
  public int nrOfInstances() {
    return common.nrOfInstances();
  }

  /** @return the resizer, or {@code null} for a fixed-size pool */
  public Resizer resizer() {
    return common.resizer();
  }

  /** @return the strategy that supervises the routees */
  public SupervisorStrategy supervisorStrategy() {
    return common.supervisorStrategy();
  }

  @Override
  public String routerDispatcher() {
    return common.routerDispatcher();
  }

  /**
   * This pool with a resizer: the pool then starts with {@link #nrOfInstances()} routees and the
   * resizer moves it within its bounds from the first message on.
   *
   * @param resizer the resizer, or {@code null} for a fixed size
   * @return a new pool of the same kind
   */
  public Pool withResizer(Resizer resizer) {
    return copy(
        new Common(common.nrOfInstances(), resizer, common.supervisorStrategy(), common.routerDispatcher()));
  }

  /**
   * This pool with another strategy for its routees, e.g. {@code new OneForOneStrategy(2,
   * decider)} to restart a failing routee twice and then stop it.
   *
   * @param strategy the strategy
   * @return a new pool of the same kind
   */
  public Pool withSupervisorStrategy(SupervisorStrategy strategy) {
    return copy(new Common(common.nrOfInstances(), common.resizer(), strategy, common.routerDispatcher()));
  }

  /**
   * This pool with its router actor (not the routees) on another dispatcher.
   *
   * @param dispatcherId a dispatcher config id, or {@code null} for the default
   * @return a new pool of the same kind
   */
  public Pool withRouterDispatcher(String dispatcherId) {
    return copy(new Common(common.nrOfInstances(), common.resizer(), common.supervisorStrategy(), dispatcherId));
  }

  /** @return extra settings of the concrete pool for {@link #toString()} */
  String extra() {
    return "";
  }

  @Override
  public String toString() {
    return getClass().getSimpleName()
        + "[nrOfInstances="
        + common.nrOfInstances()
        + extra()
        + (common.resizer() == null ? "" : ", resizer=" + common.resizer())
        + (common.routerDispatcher() == null ? "" : ", routerDispatcher=" + common.routerDispatcher())
        + "]";
  }
}
