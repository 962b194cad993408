package dev.troupe.actor.internal.dispatch;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A mailbox's queue with enqueue and dequeue counters, so that telemetry samples the mailbox's
 * depth in O(1) without scanning it. Only mailboxes of a system with telemetry on get one (see
 * {@link Mailbox}'s constructor); the queue of every other mailbox is not wrapped, and no call
 * site of a system without telemetry ever sees this class.
 *
 * <p>A producer pays one atomic increment per message (counted before the offer, so that the
 * consumer never sees a dequeue ahead of its enqueue; a refused offer takes it back); the consumer
 * counts with a plain field of its own.
 */
final class CountingQueue implements MessageQueue {
  private final MessageQueue queue;
  private final AtomicLong enqueued = new AtomicLong(); // any thread
  private long dequeued; // consumer only

  CountingQueue(MessageQueue queue) {
    this.queue = queue;
  }

  @Override
  public boolean offer(Envelope e) {
    enqueued.getAndIncrement();
    if (queue.offer(e)) {
      return true;
    }
    enqueued.getAndDecrement();
    return false;
  }

  @Override
  public Envelope poll() {
    Envelope e = queue.poll();
    if (e != null) {
      dequeued++;
    }
    return e;
  }

  @Override
  public boolean hasMessages() {
    return queue.hasMessages();
  }

  @Override
  public int sizeHint() {
    return queue.sizeHint();
  }

  /** Consumer only: messages enqueued and not yet taken (those being enqueued included). */
  long depth() {
    return Math.max(0L, enqueued.get() - dequeued);
  }
}
