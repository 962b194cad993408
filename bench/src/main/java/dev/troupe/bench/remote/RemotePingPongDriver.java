package dev.troupe.bench.remote;

import dev.troupe.bench.common.Impl;
import org.HdrHistogram.Histogram;

/**
 * One side of {@code RemotePingPong}: two actor systems of one framework in this JVM (or the pong
 * system in a child JVM, {@link PongNode}), each with
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

  /** Terminates both systems (bounded), and the child JVM when there is one. */
  void teardown();

  /** @return the process id of the child JVM that runs the pong side, or -1 when it runs in this one */
  default long childPid() {
    return -1;
  }

  /** The {@code impl} spelling of Troupe with telemetry on and the Micrometer binder bound. */
  String WITH_MICROMETER = "troupe-micrometer";

  /**
   * @param impl which implementation
   * @return its driver
   */
  static RemotePingPongDriver create(Impl impl) {
    return create(impl, false);
  }

  /** @param childJvm whether the pong side runs in a child JVM ({@link PongNode}) */
  private static RemotePingPongDriver create(Impl impl, boolean childJvm) {
    return impl == Impl.TROUPE ? new TroupeRemotePingPong(false, childJvm, "auto", "nio") : new PekkoRemotePingPong(impl, childJvm);
  }

  /**
   * @param impl an {@link Impl} id, or {@value #WITH_MICROMETER} (Troupe with telemetry on and the
   *     Micrometer binder bound to a registry on both systems, all defaults)
   * @return its driver
   */
  static RemotePingPongDriver create(String impl) {
    return create(impl, 1);
  }

  /**
   * @param impl as {@link #create(String)}, or {@code raw} / {@code raw-batched}: the raw-socket
   *     baseline ({@link RawSocketPingPong})
   * @param jvms 1: both sides in this JVM; 2: the pong side in a child JVM ({@link PongNode}; not
   *     with {@value #WITH_MICROMETER})
   * @return its driver
   */
  static RemotePingPongDriver create(String impl, int jvms) {
    return create(impl, jvms, "auto", "nio");
  }

  /**
   * @param impl as {@link #create(String, int)}
   * @param jvms as {@link #create(String, int)}
   * @param inboundLanes Troupe's {@code troupe.remote.advanced.inbound-lanes} on both systems
   *     ({@code auto} or a number); the other implementations ignore it
   * @param transport Troupe's {@code troupe.remote.advanced.transport} on both systems ({@code
   *     auto}, {@code nio} or {@code epoll}); the other implementations ignore it
   * @return its driver
   */
  static RemotePingPongDriver create(String impl, int jvms, String inboundLanes, String transport) {
    if (jvms != 1 && jvms != 2) {
      throw new IllegalArgumentException("jvms must be 1 or 2, was " + jvms);
    }
    boolean child = jvms == 2;
    return switch (impl) {
      case "raw" -> new RawSocketPingPong(false, child);
      case "raw-batched" -> new RawSocketPingPong(true, child);
      case WITH_MICROMETER -> {
        if (child) {
          throw new IllegalArgumentException(WITH_MICROMETER + " runs in one JVM only");
        }
        yield new TroupeRemotePingPong(true, false, inboundLanes, transport);
      }
      default -> Impl.of(impl) == Impl.TROUPE ? new TroupeRemotePingPong(false, child, inboundLanes, transport) : create(Impl.of(impl), child);
    };
  }
}
