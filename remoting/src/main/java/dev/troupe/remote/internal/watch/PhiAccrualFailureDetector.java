package dev.troupe.remote.internal.watch;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The phi accrual failure detector (Hayashibara et al., 2004) for one watched node. Instead of a
 * yes/no timeout it tells how suspicious the current silence is: it keeps the gaps between the
 * last heartbeats (a bounded window), models the next gap as a normal distribution with their mean
 * and standard deviation, and reports {@code phi = -log10(P(a gap at least this long))}. Phi 1
 * means a one-in-ten chance that the node is merely slow, phi 10 one in ten billion.
 *
 * <p>Two adjustments make it robust for heartbeats: the standard deviation is never below {@link
 * #MIN_STD_DEVIATION_NANOS} (perfectly regular heartbeats would otherwise make any small delay
 * look fatal), and the acceptable pause is added to the mean (a GC pause or network hiccup of that
 * length raises phi only a little). Until real heartbeats arrive the window is seeded with two
 * gaps around the expected interval, and the detector's creation counts as the first heartbeat,
 * so a node that never answers is suspected too.
 *
 * <p>Not thread-safe: its owner synchronizes.
 */
final class PhiAccrualFailureDetector {
  /** Floor of the standard deviation of the gaps. */
  static final long MIN_STD_DEVIATION_NANOS = 100_000_000L;
  /** Gaps remembered at most; older ones leave the window. */
  static final int WINDOW = 1000;

  private final double threshold;
  private final long acceptablePauseNanos;
  private final LongSupplier clock;
  private final long[] gaps = new long[WINDOW];
  private int count;
  private int next;
  private double sum;
  private double sumOfSquares;
  private long last;

  /**
   * @param threshold phi above which the node counts as gone
   * @param acceptablePause silence tolerated beyond the usual gaps
   * @param expectedInterval the heartbeat interval, the first estimate of the gaps
   * @param clock nanoseconds, monotonic ({@code System::nanoTime} outside tests)
   */
  PhiAccrualFailureDetector(double threshold, Duration acceptablePause, Duration expectedInterval, LongSupplier clock) {
    this.threshold = threshold;
    this.acceptablePauseNanos = acceptablePause.toNanos();
    this.clock = clock;
    long estimate = expectedInterval.toNanos();
    add(estimate - estimate / 4); // mean = estimate, standard deviation = estimate / 4
    add(estimate + estimate / 4);
    this.last = clock.getAsLong();
  }

  /** A heartbeat (response) arrived now. */
  void heartbeat() {
    long now = clock.getAsLong();
    add(now - last);
    last = now;
  }

  private void add(long gap) {
    if (count == WINDOW) {
      long old = gaps[next];
      sum -= old;
      sumOfSquares -= (double) old * old;
    } else {
      count++;
    }
    gaps[next] = gap;
    next = (next + 1) % WINDOW;
    sum += gap;
    sumOfSquares += (double) gap * gap;
  }

  /** @return phi for the silence since the last heartbeat, now */
  double phi() {
    double mean = sum / count;
    double variance = Math.max(0, sumOfSquares / count - mean * mean);
    double stdDeviation = Math.max(Math.sqrt(variance), MIN_STD_DEVIATION_NANOS);
    double silence = clock.getAsLong() - last;
    double y = (silence - mean - acceptablePauseNanos) / stdDeviation;
    // P(gap >= silence) = 1 - CDF(y), with the logistic approximation of the normal CDF
    // CDF(y) ~ 1 / (1 + e^-z), z = 1.5976 y + 0.070566 y^3 (error below 1.4e-4). Then
    // phi = -log10(1 - CDF(y)) = log10(1 + e^z), computed without overflow for large z.
    double z = y * (1.5976 + 0.070566 * y * y);
    double lnOnePlusExpZ = z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
    return lnOnePlusExpZ / Math.log(10);
  }

  /** @return whether phi is above the threshold: the node is gone as far as can be told */
  boolean suspects() {
    return phi() > threshold;
  }
}
