package dev.troupe.bench.common;

import org.HdrHistogram.Histogram;

/** Messages of {@code PingPongThroughput} and {@code RoundTripLatency}. */
public final class PingPongMessages {
  private PingPongMessages() {}

  /** Pinger to ponger; allocation-free. */
  public enum Ping {
    INSTANCE
  }

  /** Ponger's reply; allocation-free. */
  public enum Pong {
    INSTANCE
  }

  /**
   * Starts one invocation on a pinger: keep {@code inFlight} pings outstanding until {@code
   * roundTrips} pongs came back, then {@code done}.
   */
  public record Start(Completion done, int roundTrips, int inFlight) {}

  /**
   * Starts one latency invocation: {@code roundTrips} sequential round trips, each timed with
   * {@link System#nanoTime()} into {@code histogram} (written only by the pinger).
   */
  public record TimedStart(Completion done, int roundTrips, Histogram histogram) {}
}
