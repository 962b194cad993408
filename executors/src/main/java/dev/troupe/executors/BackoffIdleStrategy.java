package dev.troupe.executors;

import java.util.concurrent.locks.LockSupport;

/**
 * Escalates on consecutive idle calls: first {@code maxSpins} calls spin
 * ({@link Thread#onSpinWait()}), the next {@code maxYields} calls {@link Thread#yield()}, then
 * every call parks, starting with {@code minParkPeriodNanos} and doubling up to
 * {@code maxParkPeriodNanos}. {@link #reset()} starts over.
 *
 * <p>{@link #idleUntilWoken()} spins and yields the same way, then parks without a deadline. In an
 * {@link AffinityPool} a parked worker is unparked by the producer that gives it work, so only the
 * pool's lookout (one idle worker, and only while a peer is busy) parks with the timed periods,
 * to look around for work to steal; every other idle worker parks until it is woken.
 *
 * <p>Not thread-safe: one instance per thread.
 */
public final class BackoffIdleStrategy implements IdleStrategy {

  private final long maxSpins;
  private final long maxYields;
  private final long minParkPeriodNanos;
  private final long maxParkPeriodNanos;

  // Owner thread only: plain fields.
  private long spins;
  private long yields;
  private long parkPeriodNanos;

  /**
   * Creates a backoff strategy.
   *
   * @param maxSpins spin calls before yielding, {@code >= 0}
   * @param maxYields yield calls before parking, {@code >= 0}
   * @param minParkPeriodNanos first park period, {@code >= 1}
   * @param maxParkPeriodNanos longest park period, {@code >= minParkPeriodNanos}
   * @throws IllegalArgumentException naming the first invalid argument
   */
  public BackoffIdleStrategy(
      long maxSpins, long maxYields, long minParkPeriodNanos, long maxParkPeriodNanos) {
    if (maxSpins < 0) {
      throw new IllegalArgumentException("maxSpins must be >= 0, was " + maxSpins);
    }
    if (maxYields < 0) {
      throw new IllegalArgumentException("maxYields must be >= 0, was " + maxYields);
    }
    if (minParkPeriodNanos < 1) {
      throw new IllegalArgumentException(
          "minParkPeriodNanos must be >= 1, was " + minParkPeriodNanos);
    }
    if (maxParkPeriodNanos < minParkPeriodNanos) {
      throw new IllegalArgumentException(
          "maxParkPeriodNanos must be >= minParkPeriodNanos (" + minParkPeriodNanos + "), was "
              + maxParkPeriodNanos);
    }
    this.maxSpins = maxSpins;
    this.maxYields = maxYields;
    this.minParkPeriodNanos = minParkPeriodNanos;
    this.maxParkPeriodNanos = maxParkPeriodNanos;
    this.parkPeriodNanos = minParkPeriodNanos;
  }

  @Override
  public void idle() {
    if (spins < maxSpins) {
      spins++;
      Thread.onSpinWait();
    } else if (yields < maxYields) {
      yields++;
      Thread.yield();
    } else {
      LockSupport.parkNanos(this, parkPeriodNanos);
      parkPeriodNanos = Math.min(parkPeriodNanos << 1, maxParkPeriodNanos);
    }
  }

  @Override
  public boolean parksNext() {
    return spins >= maxSpins && yields >= maxYields;
  }

  /**
   * Spins and yields as {@link #idle()} does, then parks with no deadline (the period does not
   * grow): the caller is unparked when it has work.
   */
  @Override
  public void idleUntilWoken() {
    if (parksNext()) {
      LockSupport.park(this);
    } else {
      idle();
    }
  }

  @Override
  public void reset() {
    spins = 0;
    yields = 0;
    parkPeriodNanos = minParkPeriodNanos;
  }

  /** @return the spin calls before yielding */
  public long maxSpins() {
    return maxSpins;
  }

  /** @return the yield calls before parking */
  public long maxYields() {
    return maxYields;
  }

  /** @return the first park period in nanoseconds */
  public long minParkPeriodNanos() {
    return minParkPeriodNanos;
  }

  /** @return the longest park period in nanoseconds */
  public long maxParkPeriodNanos() {
    return maxParkPeriodNanos;
  }

  @Override
  public String toString() {
    return "BackoffIdleStrategy{maxSpins=" + maxSpins + ", maxYields=" + maxYields
        + ", minParkPeriodNanos=" + minParkPeriodNanos + ", maxParkPeriodNanos="
        + maxParkPeriodNanos + '}';
  }
}
