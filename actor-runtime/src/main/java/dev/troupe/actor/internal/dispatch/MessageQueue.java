package dev.troupe.actor.internal.dispatch;

/**
 * The user-message queue of a mailbox: many producers, one consumer (the thread that currently
 * runs the mailbox).
 */
interface MessageQueue {
  /**
   * Adds an envelope; any thread.
   *
   * @param e the envelope
   * @return {@code false} if the queue is bounded and stayed full for its push timeout
   */
  boolean offer(Envelope e);

  /**
   * Takes the oldest envelope; consumer thread only.
   *
   * @return the envelope, or {@code null} if the queue is empty
   */
  Envelope poll();

  /**
   * Whether an envelope is queued or being queued; any thread. Cheap (a volatile load) and may be
   * stale by the time it returns, so it is only a hint, except right after a full fence, which the
   * mailbox's scheduling protocol relies on.
   *
   * @return whether the queue may be non-empty
   */
  boolean hasMessages();

  /**
   * An O(1) estimate of the number of queued messages, for smallest-mailbox routing. Unbounded
   * queues keep no count and answer 0 or 1 (empty or not).
   *
   * @return the estimate
   */
  int sizeHint();
}
