package dev.troupe.bench.remote;

import dev.troupe.bench.common.Impl;
import org.HdrHistogram.Histogram;

/**
 * One side of {@code RemotePingPong}: two actor systems of one framework in this JVM, each with
 * remoting on 127.0.0.1 and an ephemeral port. The pong system hosts {@code pairs} pongers; the ping
 * system looks each one up by path ({@code resolveOne}) and creates a pinger for it. Each pinger
 * keeps {@code inFlight} pings outstanding; each pong that arrives triggers the next ping until the
 * pair has done its round trips.
 */
public interface RemotePingPongDriver {

  /**
   * Starts both systems, the pongers, the lookups and the pingers.
   *
   * @param pairs pinger/ponger pairs
   * @param inFlight pings outstanding per pair
   */
  void setup(int pairs, int inFlight);

  /**
   * Runs one invocation and waits for it (bounded).
   *
   * @param roundTripsPerPair round trips each pair does
   * @param histograms one per pair, where its pinger records each round trip in nanoseconds; not
   *     touched by anyone else until this returns
   */
  void runIteration(int roundTripsPerPair, Histogram[] histograms);

  /** Terminates both systems (bounded). */
  void teardown();

  /** The {@code impl} spelling of Troupe with telemetry on and the Micrometer binder bound. */
  String WITH_MICROMETER = "troupe-micrometer";

  /**
   * @param impl which implementation
   * @return its driver
   */
  static RemotePingPongDriver create(Impl impl) {
    return impl == Impl.TROUPE ? new TroupeRemotePingPong(false) : new PekkoRemotePingPong(impl);
  }

  /**
   * @param impl an {@link Impl} id, or {@value #WITH_MICROMETER} (Troupe with telemetry on and the
   *     Micrometer binder bound to a registry on both systems, all defaults)
   * @return its driver
   */
  static RemotePingPongDriver create(String impl) {
    return impl.equals(WITH_MICROMETER) ? new TroupeRemotePingPong(true) : create(Impl.of(impl));
  }
}
