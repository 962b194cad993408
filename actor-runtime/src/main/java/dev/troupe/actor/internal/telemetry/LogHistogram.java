package dev.troupe.actor.internal.telemetry;

import dev.troupe.actor.Telemetry.Summary;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A log-linear histogram of non-negative longs with atomic buckets: each power of two is split
 * into {@value #SUB} linear sub-buckets, so a bucket's upper edge is at most 1/{@value #SUB} above
 * any value in it. 496 buckets cover 0 to {@code Long.MAX_VALUE} in 3.9 KiB, fixed.
 *
 * <p>Why not HdrHistogram: it would be the runtime's first dependency beyond Config and slf4j, for
 * a job this class does in 60 lines; telemetry needs percentiles to within ~12 %, a fixed footprint
 * and lock-free recording from any thread, not HdrHistogram's configurable precision, its
 * iterators or its log format. Recording is one {@code getAndIncrement} on a bucket plus a max
 * update that is almost always a read: affordable because callers record only sampled events.
 */
final class LogHistogram {
  private static final int SUB_BITS = 3;
  static final int SUB = 1 << SUB_BITS;
  private static final int BUCKETS = (64 - SUB_BITS + 1) * SUB;

  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
  private final AtomicLong max = new AtomicLong();

  /**
   * Any thread.
   *
   * @param value the value; negative values (a clock that stepped back) count as 0
   */
  void record(long value) {
    long v = Math.max(0L, value);
    counts.getAndIncrement(index(v));
    long m = max.get();
    while (v > m && !max.compareAndSet(m, v)) {
      m = max.get();
    }
  }

  /** Adds another histogram's counts to this one (snapshots merge per class across dispatchers). */
  void addTo(long[] into) {
    for (int i = 0; i < BUCKETS; i++) {
      into[i] += counts.get(i);
    }
  }

  long max() {
    return max.get();
  }

  static long[] newCounts() {
    return new long[BUCKETS];
  }

  Summary summary() {
    long[] c = newCounts();
    addTo(c);
    return summary(c, max());
  }

  /**
   * @param c bucket counts (possibly merged)
   * @param max the largest value recorded
   * @return the summary
   */
  static Summary summary(long[] c, long max) {
    long total = 0;
    for (long n : c) {
      total += n;
    }
    if (total == 0) {
      return Summary.EMPTY;
    }
    return new Summary(
        total,
        percentile(c, total, 0.50, max),
        percentile(c, total, 0.90, max),
        percentile(c, total, 0.99, max),
        max);
  }

  private static long percentile(long[] c, long total, double q, long max) {
    long rank = (long) Math.ceil(q * total);
    long seen = 0;
    for (int i = 0; i < c.length; i++) {
      seen += c[i];
      if (seen >= rank) {
        return Math.min(upperEdge(i), max);
      }
    }
    return max;
  }

  /** Values below {@code SUB} get a bucket each; above, the top SUB_BITS+1 bits choose it. */
  static int index(long v) {
    if (v < SUB) {
      return (int) v;
    }
    int msb = 63 - Long.numberOfLeadingZeros(v); // >= SUB_BITS
    int shift = msb - SUB_BITS;
    int sub = (int) (v >>> shift) & (SUB - 1); // the SUB_BITS bits below the top one
    return (shift + 1) * SUB + sub;
  }

  /** The largest value that {@link #index} maps to bucket {@code i}. */
  static long upperEdge(int i) {
    if (i < SUB) {
      return i;
    }
    int shift = i / SUB - 1;
    long sub = i % SUB;
    long lower = (SUB + sub) << shift;
    long width = 1L << shift;
    long edge = lower + width - 1;
    return edge < 0 ? Long.MAX_VALUE : edge;
  }
}
