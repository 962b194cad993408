package dev.troupe.actor.internal.scheduler;

import java.util.function.Consumer;

/**
 * The wheel itself: {@code ticksPerWheel} buckets, each a circular doubly linked list of timers
 * around a sentinel, so that adding and removing a timer are O(1) and allocate nothing.
 *
 * <p>A timer due at tick boundary {@code b} lives in bucket {@code b & mask}; timers more than one
 * revolution away share the bucket and are skipped (their {@code targetTick} is still ahead) until
 * their round comes.
 *
 * <p><b>Timer thread only</b>: no field here is read or written by any other thread, so all
 * accesses are plain.
 */
final class TimingWheel {

  private final WheelTimer[] buckets;
  private final int mask;

  /** The next tick boundary to process; every boundary before it has been processed. */
  private long tick;

  /** Timers linked in the wheel. */
  private int size;

  TimingWheel(int ticksPerWheel) {
    buckets = new WheelTimer[ticksPerWheel];
    for (int i = 0; i < ticksPerWheel; i++) {
      buckets[i] = WheelTimer.sentinel();
    }
    mask = ticksPerWheel - 1;
  }

  long tick() {
    return tick;
  }

  int size() {
    return size;
  }

  /**
   * Skips unprocessed boundaries up to {@code boundary}; only while empty, so nothing is missed.
   */
  void skipTo(long boundary) {
    if (size == 0 && boundary > tick) {
      tick = boundary;
    }
  }

  /** Links {@code t} at its target boundary, or at the next unprocessed one if that has passed. */
  void add(WheelTimer t) {
    long at = Math.max(t.targetTick, tick);
    t.targetTick = at;
    WheelTimer head = buckets[(int) (at & mask)];
    WheelTimer last = head.prev;
    t.prev = last;
    t.next = head;
    last.next = t;
    head.prev = t;
    size++;
  }

  /** Unlinks {@code t} if it is linked; returns whether it was. */
  boolean remove(WheelTimer t) {
    WheelTimer p = t.prev;
    if (p == null) {
      return false;
    }
    WheelTimer n = t.next;
    p.next = n;
    n.prev = p;
    t.prev = null;
    t.next = null;
    size--;
    return true;
  }

  /**
   * Processes the next boundary: unlinks every timer due at it, passes each to {@code due}, and
   * advances {@link #tick()}.
   *
   * @return how many timers were due
   */
  int expireNext(Consumer<WheelTimer> due) {
    long boundary = tick;
    WheelTimer head = buckets[(int) (boundary & mask)];
    int expired = 0;
    WheelTimer t = head.next;
    while (t != head) {
      WheelTimer n = t.next;
      if (t.targetTick <= boundary) {
        remove(t);
        expired++;
        due.accept(t);
      }
      t = n;
    }
    tick = boundary + 1;
    return expired;
  }

  /**
   * The earliest boundary at which a linked timer is due; only while {@link #size()} &gt; 0. Every
   * linked timer is due at {@link #tick()} or later, and a timer due at boundary {@code b} lives in
   * bucket {@code b & mask}; so the first bucket, in boundary order from {@code tick()}, holding a
   * timer due at exactly that bucket's boundary within this revolution gives the answer. If no
   * bucket does, every timer is a revolution or more away, each was visited once, and the least
   * target is the answer. O(buckets + timers in the buckets visited): called when the timer thread
   * is about to sleep, not per timer.
   */
  long nextDueTick() {
    long least = Long.MAX_VALUE;
    for (int i = 0; i < buckets.length; i++) {
      long boundary = tick + i;
      WheelTimer head = buckets[(int) (boundary & mask)];
      for (WheelTimer t = head.next; t != head; t = t.next) {
        if (t.targetTick == boundary) {
          return boundary;
        }
        least = Math.min(least, t.targetTick);
      }
    }
    return least;
  }

  /** Unlinks every timer, passing each to {@code sink}. */
  void clear(Consumer<WheelTimer> sink) {
    for (WheelTimer head : buckets) {
      WheelTimer t = head.next;
      while (t != head) {
        WheelTimer n = t.next;
        remove(t);
        sink.accept(t);
        t = n;
      }
    }
  }
}
