package dev.troupe.actor.internal.dispatch;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link NodeQueue} with an exact capacity: producers reserve a slot with one atomic increment
 * before linking, the consumer releases it after unlinking. The count doubles as an exact O(1) size
 * hint for smallest-mailbox routing.
 *
 * <p>A producer finding the queue full waits (spin, then short parks) up to the push timeout and
 * then reports failure, which sends the message to dead letters. Waiting blocks the sending
 * thread, as a bounded mailbox's contract says; use a zero push timeout to never block.
 */
final class BoundedNodeQueue implements MessageQueue {
  private final NodeQueue queue = new NodeQueue();
  private final AtomicInteger count = new AtomicInteger();
  private final int capacity;
  private final long pushTimeoutNanos;

  BoundedNodeQueue(int capacity, long pushTimeoutNanos) {
    this.capacity = capacity;
    this.pushTimeoutNanos = pushTimeoutNanos;
  }

  @Override
  public boolean offer(Envelope e) {
    if (!reserve()) {
      return false;
    }
    return queue.offer(e);
  }

  private boolean reserve() {
    if (tryReserve()) {
      return true;
    }
    if (pushTimeoutNanos <= 0) {
      return false;
    }
    long deadline = System.nanoTime() + pushTimeoutNanos;
    int spins = 0;
    while (!tryReserve()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      if (++spins < 100) {
        Thread.onSpinWait();
      } else {
        LockSupport.parkNanos(Math.min(left, 100_000L));
      }
    }
    return true;
  }

  private boolean tryReserve() {
    for (; ; ) {
      int c = count.get();
      if (c >= capacity) {
        return false;
      }
      if (count.compareAndSet(c, c + 1)) {
        return true;
      }
    }
  }

  @Override
  public Envelope poll() {
    Envelope e = queue.poll();
    if (e != null) {
      count.decrementAndGet();
    }
    return e;
  }

  @Override
  public boolean hasMessages() {
    return queue.hasMessages();
  }

  @Override
  public int sizeHint() {
    return count.get();
  }
}
