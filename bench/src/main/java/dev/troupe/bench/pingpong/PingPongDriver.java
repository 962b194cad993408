package dev.troupe.bench.pingpong;

import dev.troupe.bench.common.Impl;

/**
 * One side of {@code PingPongThroughput}: {@code pairs} pinger/ponger pairs on one dispatcher. Each
 * pinger keeps {@code inFlight} pings outstanding; each pong that arrives triggers the next ping
 * until the pair has done its round trips, then the pinger completes the invocation.
 */
public interface PingPongDriver {
  /** The {@code impl} spelling of Troupe's typed actors ({@code TypedPingPong}). */
  String TYPED = "troupe-typed";

  /** The {@code impl} spelling of Pekko Typed ({@code TypedPingPong}). */
  String PEKKO_TYPED = "pekko-typed";

  /**
   * Starts the system and the actors.
   *
   * @param pairs pinger/ponger pairs
   * @param throughput the dispatcher's throughput
   * @param inFlight pings outstanding per pair
   */
  void setup(int pairs, int throughput, int inFlight);

  /**
   * Runs one invocation and waits for it (bounded).
   *
   * @param roundTripsPerPair round trips each pair does
   */
  void runIteration(int roundTripsPerPair);

  /** Terminates the system (bounded). */
  void teardown();

  /**
   * @param impl which implementation
   * @return its driver
   */
  static PingPongDriver create(Impl impl) {
    return impl == Impl.TROUPE ? new TroupePingPong(false) : new PekkoPingPong(impl);
  }

  /**
   * @param impl an {@link Impl} id, or {@code troupe-telemetry} (Troupe with telemetry on), {@code
   *     troupe-typed} (typed actors), {@code pekko-typed} (Pekko Typed behaviours), {@code
   *     troupe-tracing} (OpenTelemetry tracing installed, no span current), {@code troupe-traced}
   *     (tracing installed and every message in a sampled span) or {@code troupe-micrometer}
   *     (telemetry on and the Micrometer binder bound)
   * @return its driver
   */
  static PingPongDriver create(String impl) {
    return switch (impl) {
      case TroupePingPong.WITH_TELEMETRY -> new TroupePingPong(true);
      case TroupePingPong.WITH_TRACING, TroupePingPong.TRACED, TroupePingPong.WITH_MICROMETER ->
          new TroupePingPong(false, impl);
      case TYPED -> new TypedTroupePingPong();
      case PEKKO_TYPED -> new PekkoTypedPingPong();
      default -> create(Impl.of(impl));
    };
  }
}
