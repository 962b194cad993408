package dev.troupe.bench.latency;

import dev.troupe.bench.common.Impl;
import org.HdrHistogram.Histogram;

/**
 * One side of {@code RoundTripLatency}: one pinger/ponger pair, one message in flight; the pinger
 * timestamps each ping with {@link System#nanoTime()} and records the round trip when the pong
 * arrives.
 */
public interface LatencyDriver {

  /** Starts the system and the pair. */
  void setup();

  /**
   * Runs {@code roundTrips} sequential round trips and waits for them (bounded).
   *
   * @param roundTrips how many
   * @param histogram where the pinger records each round trip in nanoseconds; not touched by anyone
   *     else until this returns
   */
  void runIteration(int roundTrips, Histogram histogram);

  /**
   * @return the actor system's name: the prefix of all its threads' names
   */
  String systemName();

  /** Terminates the system (bounded). */
  void teardown();

  /**
   * @param impl {@code troupe-idle<level>}, {@code troupe-spin} (busy-spinning idle workers),
   *     {@code troupe-tracing} ({@code troupe-idle5} with OpenTelemetry tracing installed and no span
   *     current), {@code pekko} or {@code pekko-tuned}
   * @return its driver
   */
  static LatencyDriver create(String impl) {
    if (impl.equals(TroupeLatency.WITH_TRACING)) {
      return new TroupeLatency(5, true);
    }
    if (impl.equals("troupe-spin")) {
      return new TroupeLatency(
          "affinity-pool-executor { idle-cpu-level = 10, idle-strategy = busy-spin }");
    }
    String prefix = "troupe-idle";
    if (impl.startsWith(prefix)) {
      int level = Integer.parseInt(impl.substring(prefix.length()));
      if (level < 1 || level > 10) {
        throw new IllegalArgumentException("idle-cpu-level is 1..10, was " + level);
      }
      return new TroupeLatency(level);
    }
    if (impl.equals("pekko") || impl.equals("pekko-tuned")) {
      return new PekkoLatency(Impl.of(impl));
    }
    throw new IllegalArgumentException(
        "unknown impl '" + impl + "': expected troupe-idle<1..10>, troupe-spin, troupe-tracing, pekko or pekko-tuned");
  }
}
