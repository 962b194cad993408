package dev.troupe.actor.internal.dispatch;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The queue of the stable priority mailboxes: a binary heap under a lock, ordered by the user's
 * comparator of messages and then by a sequence number taken at the send, so that messages that
 * compare equal come out in send order.
 *
 * <p>Any thread offers, one consumer polls; both take the lock ({@link ReentrantLock}, not a
 * monitor: a sender on a virtual thread that waits here does not pin its carrier). The count is
 * changed under the lock but read without it: {@link #hasMessages()} is one volatile load, and a
 * producer's increment (a volatile write) comes before its read of the mailbox status, which gives
 * the scheduling protocol its exact check after a full fence.
 *
 * <p>Bounded: a producer finding {@code capacity} messages waits on a condition up to the push
 * timeout (zero: not at all), then reports failure and the message goes to dead letters; an
 * interrupt ends the wait the same way, with the interrupt status kept.
 *
 * <p>A comparator that throws on a send fails that send (the exception reaches the sender, the
 * message is not queued); one that throws while the consumer takes a message is answered with
 * send order for that pair.
 */
final class PriorityMessageQueue implements MessageQueue {
  /** A queued envelope with its send sequence number; the heap's node. */
  private static final class Entry {
    final Envelope envelope;
    final long seq;

    Entry(Envelope envelope, long seq) {
      this.envelope = envelope;
      this.seq = seq;
    }
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final PriorityQueue<Entry> heap; // under lock
  private final AtomicInteger count = new AtomicInteger(); // written under lock, read by anyone
  private final int capacity;
  private final long pushTimeoutNanos;
  private final Condition notFull; // null when unbounded
  private long nextSeq; // under lock
  private RuntimeException comparatorFailure; // under lock: what the user's comparator threw

  /**
   * @param order the user's order of messages
   * @param capacity the bound, or {@code Integer.MAX_VALUE} for none
   * @param pushTimeoutNanos how long a sender waits for room
   */
  PriorityMessageQueue(Comparator<Object> order, int capacity, long pushTimeoutNanos) {
    this.heap = new PriorityQueue<>(11, (a, b) -> {
      int c;
      try {
        c = order.compare(a.envelope.message, b.envelope.message);
      } catch (RuntimeException failed) {
        // A heap whose comparator throws half-way through a sift loses an element: answer in
        // send order instead, and let offer take the new message out again and rethrow.
        if (comparatorFailure == null) {
          comparatorFailure = failed;
        }
        c = 0;
      }
      return c != 0 ? c : Long.compare(a.seq, b.seq);
    });
    this.capacity = capacity;
    this.pushTimeoutNanos = pushTimeoutNanos;
    this.notFull = capacity == Integer.MAX_VALUE ? null : lock.newCondition();
  }

  @Override
  public boolean offer(Envelope e) {
    lock.lock();
    try {
      if (count.get() >= capacity && !awaitRoom()) {
        return false;
      }
      Entry x = new Entry(e, nextSeq++);
      heap.add(x);
      RuntimeException failed = comparatorFailure;
      if (failed != null) {
        comparatorFailure = null;
        heap.remove(x); // the heap is intact (see the comparator): the sender gets the exception
        throw failed;
      }
      count.incrementAndGet();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Under the lock, the queue full: waits for room up to the push timeout. */
  private boolean awaitRoom() {
    long left = pushTimeoutNanos;
    while (count.get() >= capacity) {
      if (left <= 0) {
        return false;
      }
      try {
        left = notFull.awaitNanos(left);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  @Override
  public Envelope poll() {
    lock.lock();
    try {
      Entry x = heap.poll();
      comparatorFailure = null; // this sift's pairs were compared before; send order is the fallback
      if (x == null) {
        return null;
      }
      count.decrementAndGet();
      if (notFull != null) {
        notFull.signal();
      }
      return x.envelope;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean hasMessages() {
    return count.get() != 0;
  }

  @Override
  public int sizeHint() {
    return count.get();
  }
}
