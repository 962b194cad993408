package dev.troupe.routing;

/**
 * A pool whose routees share one work queue: a message waits in the queue until a routee is free,
 * so a routee busy with a slow message never holds back others (no work is assigned to a busy
 * routee). Suits routees that are interchangeable and stateless.
 *
 * <p>How: the routees run on a {@code BalancingDispatcher} team of their own, whose members share
 * one message queue. The team lives on the threads of the routees' dispatcher (the routee props'
 * dispatcher, or the deployment's {@code pool-dispatcher}; it must be of type {@code Dispatcher}),
 * so a pool costs no threads of its own; if that dispatcher is itself a {@code
 * BalancingDispatcher}, the routees join its team. A routed message is one envelope on the shared
 * queue: if the routee it was handed to is busy, an idle member is scheduled to take it.
 *
 * <p>Consequences of the shared queue: a message sent to a routee directly (not through the router)
 * is also work for the whole team; a {@link Broadcast} puts one copy per routee on the queue, and
 * each copy goes to whichever member is free, not one to each routee (so {@code
 * Broadcast(PoisonPill)} still stops them all: a member takes no work after its pill); what is
 * still queued when the last routee stops goes to dead letters. A balancing pool has a fixed size
 * (no resizer).
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
