package dev.troupe.routing;

/**
 * A pool that sends each message to a routee chosen uniformly at random ({@link
 * java.util.concurrent.ThreadLocalRandom}: no shared state between senders).
 *
 * <p>Immutable and thread-safe; see {@link Pool} for supervision, resizing and stopping.
 */
public final class RandomPool extends Pool {
  /**
   * @param nrOfInstances how many routees to start with, at least 1
   * @throws IllegalArgumentException if {@code nrOfInstances < 1}
   */
  public RandomPool(int nrOfInstances) {
    super(Common.of(nrOfInstances));
  }

  private RandomPool(Common c) {
    super(c);
  }

  @Override
  RandomPool copy(Common c) {
    return new RandomPool(c);
  }

  @Override
  public RandomPool withResizer(Resizer resizer) {
    return (RandomPool) super.withResizer(resizer);
  }

  @Override
  public RandomPool withSupervisorStrategy(dev.troupe.actor.SupervisorStrategy strategy) {
    return (RandomPool) super.withSupervisorStrategy(strategy);
  }

  @Override
  public RandomPool withRouterDispatcher(String dispatcherId) {
    return (RandomPool) super.withRouterDispatcher(dispatcherId);
  }
}
