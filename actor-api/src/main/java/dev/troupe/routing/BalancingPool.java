package dev.troupe.routing;

/**
 * A pool whose routees share one work queue: a message waits in the pool's queue until a routee
 * is free, so a routee busy with a slow message never holds back others (no work is assigned to a
 * busy routee). Suits routees that are interchangeable and stateless.
 *
 * <p>How: messages sent to the router go to one shared lock-free queue. Each routee has at most one
 * message of the pool in its mailbox at a time; when it has processed it, the routee's cell answers
 * a completion probe (an {@link dev.troupe.actor.Identify} handled by the runtime, never seen by
 * the actor), and that answer hands it the next message from the shared queue, in the routee's own
 * thread. This keeps the pool independent of the dispatcher (a dedicated {@code
 * BalancingDispatcher} is a separate feature). Consequences: each message costs one extra envelope
 * and reply; the probe counts as activity for a routee's receive timeout; messages sent to a routee
 * directly (not through the router) bypass the shared queue. A balancing pool has a fixed size (no
 * resizer).
 */
public final class BalancingPool extends Pool {
  /**
   * @param nrOfInstances how many routees, at least 1
   * @throws IllegalArgumentException if {@code nrOfInstances < 1}
   */
  public BalancingPool(int nrOfInstances) {
    super(Common.of(nrOfInstances));
  }

  private BalancingPool(Common c) {
    super(c);
  }

  @Override
  BalancingPool copy(Common c) {
    return new BalancingPool(c);
  }

  /**
   * Not supported: a balancing pool has a fixed size.
   *
   * @param resizer must be {@code null}
   * @return this pool
   * @throws IllegalArgumentException if {@code resizer} is not null
   */
  @Override
  public BalancingPool withResizer(Resizer resizer) {
    if (resizer != null) {
      throw new IllegalArgumentException("resizer: a BalancingPool has a fixed size and takes no resizer");
    }
    return this;
  }

  @Override
  public BalancingPool withSupervisorStrategy(dev.troupe.actor.SupervisorStrategy strategy) {
    return (BalancingPool) super.withSupervisorStrategy(strategy);
  }

  @Override
  public BalancingPool withRouterDispatcher(String dispatcherId) {
    return (BalancingPool) super.withRouterDispatcher(dispatcherId);
  }
}
