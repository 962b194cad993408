package dev.troupe.routing;

/**
 * A pool that sends to its routees in turn: message {@code i} goes to routee {@code i mod n}
 * (one shared atomic counter; exact order for a single sender, fair interleaving for many). Cost:
 * one atomic increment per message.
 *
 * <p>Immutable and thread-safe; see {@link Pool} for supervision, resizing and stopping.
 */
public final class RoundRobinPool extends Pool {
  /**
   * @param nrOfInstances how many routees to start with, at least 1
   * @throws IllegalArgumentException if {@code nrOfInstances < 1}
   */
  public RoundRobinPool(int nrOfInstances) {
    super(Common.of(nrOfInstances));
  }

  private RoundRobinPool(Common c) {
    super(c);
  }

  @Override
  RoundRobinPool copy(Common c) {
    return new RoundRobinPool(c);
  }

  @Override
  public RoundRobinPool withResizer(Resizer resizer) {
    return (RoundRobinPool) super.withResizer(resizer);
  }

  @Override
  public RoundRobinPool withSupervisorStrategy(dev.troupe.actor.SupervisorStrategy strategy) {
    return (RoundRobinPool) super.withSupervisorStrategy(strategy);
  }

  @Override
  public RoundRobinPool withRouterDispatcher(String dispatcherId) {
    return (RoundRobinPool) super.withRouterDispatcher(dispatcherId);
  }
}
