package dev.troupe.actor.internal.dispatch;

import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The one user-message queue of a {@link BalancingDispatcher} team: many producers and many
 * consumers (every member's run polls it), so it cannot be the intrusive MPSC {@link NodeQueue}.
 * A {@link ConcurrentLinkedQueue} (Michael-Scott, lock-free) allocates a node per message, which
 * is the price of sharing; balancing is chosen for uneven work, not for the last nanosecond.
 *
 * <p>The mailbox protocol needs {@link #hasMessages()} to be exact after a full fence: an offer is
 * a CAS (full fence) and {@code isEmpty()} reads the volatile head/next links, so a member's
 * post-run re-check cannot miss a message whose producer saw that member scheduled.
 */
final class SharedMessageQueue implements MessageQueue {
  private final ConcurrentLinkedQueue<Envelope> queue = new ConcurrentLinkedQueue<>();

  @Override
  public boolean offer(Envelope e) {
    return queue.offer(e);
  }

  @Override
  public Envelope poll() {
    return queue.poll();
  }

  @Override
  public boolean hasMessages() {
    return !queue.isEmpty();
  }

  @Override
  public int sizeHint() {
    return queue.isEmpty() ? 0 : 1; // size() is O(n); routing only needs "has work"
  }
}
