package dev.troupe.routing;

/**
 * A pool that sends every message to all its routees. Cost: one send per routee.
 *
 * <p>Immutable and thread-safe; see {@link Pool} for supervision, resizing and stopping.
 */
public final class BroadcastPool extends Pool {
  /**
   * @param nrOfInstances how many routees to start with, at least 1
   * @throws IllegalArgumentException if {@code nrOfInstances < 1}
   */
  public BroadcastPool(int nrOfInstances) {
    super(Common.of(nrOfInstances));
  }

  private BroadcastPool(Common c) {
    super(c);
  }

  @Override
  BroadcastPool copy(Common c) {
    return new BroadcastPool(c);
  }

  @Override
  public BroadcastPool withResizer(Resizer resizer) {
    return (BroadcastPool) super.withResizer(resizer);
  }

  @Override
  public BroadcastPool withSupervisorStrategy(dev.troupe.actor.SupervisorStrategy strategy) {
    return (BroadcastPool) super.withSupervisorStrategy(strategy);
  }

  @Override
  public BroadcastPool withRouterDispatcher(String dispatcherId) {
    return (BroadcastPool) super.withRouterDispatcher(dispatcherId);
  }
}
