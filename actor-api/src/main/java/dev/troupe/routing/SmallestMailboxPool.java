package dev.troupe.routing;

/**
 * A pool that sends each message to the routee that looks least loaded, in this order of preference:
 * an idle routee with an empty mailbox, then any routee with an empty mailbox, then the routee with
 * the smallest queue-size hint.
 *
 * <p>Cost and approximation: O(1) per routee (O(n) per message, stopping at the first idle routee);
 * it never walks a queue. It reads three hints the mailbox keeps: whether it is scheduled or
 * running, whether its queue may be non-empty, and an O(1) size estimate. Unbounded mailboxes keep
 * no count, so their estimate is only 0 or 1: among routees that all have waiting messages the pick
 * is then the first one found, not the one with the shortest queue. The hints may be stale by the
 * time the message arrives (another sender may pick the same idle routee at the same moment).
 *
 * <p>Immutable and thread-safe; see {@link Pool} for supervision, resizing and stopping.
 */
public final class SmallestMailboxPool extends Pool {
  /**
   * @param nrOfInstances how many routees to start with, at least 1
   * @throws IllegalArgumentException if {@code nrOfInstances < 1}
   */
  public SmallestMailboxPool(int nrOfInstances) {
    super(Common.of(nrOfInstances));
  }

  private SmallestMailboxPool(Common c) {
    super(c);
  }

  @Override
  SmallestMailboxPool copy(Common c) {
    return new SmallestMailboxPool(c);
  }

  @Override
  public SmallestMailboxPool withResizer(Resizer resizer) {
    return (SmallestMailboxPool) super.withResizer(resizer);
  }

  @Override
  public SmallestMailboxPool withSupervisorStrategy(dev.troupe.actor.SupervisorStrategy strategy) {
    return (SmallestMailboxPool) super.withSupervisorStrategy(strategy);
  }

  @Override
  public SmallestMailboxPool withRouterDispatcher(String dispatcherId) {
    return (SmallestMailboxPool) super.withRouterDispatcher(dispatcherId);
  }
}
