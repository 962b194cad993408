package dev.troupe.bench.common;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/** Round-trip histograms of the latency benchmarks ({@code RoundTripLatency}, {@code RemotePingPong}). */
public final class RoundTrips {
  private RoundTrips() {}

  /**
   * @return a histogram of nanoseconds up to 10 s, three significant digits
   */
  public static Histogram newHistogram() {
    return new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
  }

  /**
   * @param nanos a duration in nanoseconds
   * @return the same in microseconds
   */
  public static double us(long nanos) {
    return nanos / 1000.0;
  }

  /**
   * @param h round trips in nanoseconds
   * @return {@code p50 … p90 … p99 … p99.9 … max …} in microseconds
   */
  public static String percentiles(Histogram h) {
    return String.format(
        Locale.ROOT,
        "p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  max %.1f",
        us(h.getValueAtPercentile(50)),
        us(h.getValueAtPercentile(90)),
        us(h.getValueAtPercentile(99)),
        us(h.getValueAtPercentile(99.9)),
        us(h.getMaxValue()));
  }
}
