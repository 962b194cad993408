package dev.troupe.bench.common;

import org.HdrHistogram.Histogram;

/**
 * Messages of {@code RemotePingPong}. {@link Ping} and {@link Pong} cross the network: both
 * frameworks bind {@link Wire} to their Jackson CBOR serializer ({@code jackson-cbor} in each), so
 * both move the same records through the same kind of serializer.
 */
public final class RemoteMessages {
  /** Bytes of payload in every ping and pong. */
  public static final int PAYLOAD_BYTES = 100;

  /** The binary name both frameworks bind to {@code jackson-cbor}. */
  public static final String WIRE_BINDING = "\"" + Wire.class.getName() + "\" = jackson-cbor";

  private RemoteMessages() {}

  /** What crosses the network, bound to Jackson CBOR on both sides. */
  public interface Wire {}

  /**
   * Pinger to ponger.
   *
   * @param sentAt the pinger's {@link System#nanoTime()} when it sent the ping (both systems share
   *     one JVM, so the pinger can subtract it when the pong comes back)
   * @param payload {@value #PAYLOAD_BYTES} bytes
   */
  public record Ping(long sentAt, byte[] payload) implements Wire {}

  /** Ponger's reply: the ping's timestamp and payload. */
  public record Pong(long sentAt, byte[] payload) implements Wire {}

  /**
   * Starts one invocation on a pinger (local, never serialized): keep {@code inFlight} pings
   * outstanding until {@code roundTrips} pongs came back, recording each round trip in nanoseconds
   * into {@code histogram} (written only by this pinger), then {@code done}.
   */
  public record RemoteStart(Completion done, int roundTrips, int inFlight, Histogram histogram) {}

  /**
   * @return a fresh payload of {@value #PAYLOAD_BYTES} bytes (not all zero, so no encoding can
   *     shortcut it)
   */
  public static byte[] payload() {
    byte[] b = new byte[PAYLOAD_BYTES];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return b;
  }
}
