package dev.troupe.remote.spi;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A read-only view of what remoting counts per peer, for the meters ({@code troupe-micrometer}):
 * messages and bytes each way, and the failure detector's phi of each watched node. Reading it
 * costs a lock per peer and an allocation per answer, nothing on the message path: the counts are
 * kept by the connections themselves, each on its own event loop.
 *
 * <p>The remote provider of a system registers its view while it runs ({@link #of}); a system
 * that is not remote, or has terminated, has none.
 */
public interface RemoteMetricsView {
  /**
   * What went over the connections with one peer since this system started (all lanes, both
   * directions of connection; connections that closed included).
   *
   * @param address the peer's address
   * @param messagesSent envelopes (user and system messages) written to the peer's connections
   * @param bytesSent bytes written to the peer's connections: every frame, length included, before
   *     TLS
   * @param messagesReceived envelopes read from the peer's connections
   * @param bytesReceived bytes read from the peer's connections, after TLS
   */
  record PeerTraffic(
      Address address, long messagesSent, long bytesSent, long messagesReceived, long bytesReceived) {}

  /** @return every peer counted so far (at most 1024: later peers are not counted), any order */
  List<PeerTraffic> peers();

  /**
   * @return the phi of the failure detector of each node watched now (some local actor watches an
   *     actor there); higher is more suspect, and above {@code
   *     troupe.remote.watch-failure-detector.threshold} the node is declared gone
   */
  Map<Address, Double> phi();

  /**
   * The summed time of this system's serializations of outgoing messages and deserializations of
   * arriving ones.
   *
   * @param serializations messages serialized
   * @param serializeNanos their summed serialization time, in nanoseconds
   * @param deserializations messages deserialized
   * @param deserializeNanos their summed deserialization time, in nanoseconds
   */
  record SerializationTime(long serializations, long serializeNanos, long deserializations, long deserializeNanos) {}

  /**
   * @return the summed (de)serialization times; empty unless {@code
   *     troupe.remote.advanced.measure-serialization = on} (the clock is read twice per message only
   *     then)
   */
  Optional<SerializationTime> serializationTime();

  /**
   * @param system an actor system
   * @return the view of its remote provider, empty when it has none (not remote, or terminated)
   */
  static Optional<RemoteMetricsView> of(ActorSystem system) {
    return Optional.ofNullable(Views.BY_SYSTEM.get(Objects.requireNonNull(system, "system")));
  }

  /**
   * Registers {@code view} as {@code system}'s (the remote provider does, when it starts).
   *
   * @param system the system
   * @param view its view
   */
  static void register(ActorSystem system, RemoteMetricsView view) {
    Views.BY_SYSTEM.put(system, view);
  }

  /**
   * Removes {@code system}'s view, if it is {@code view} (the remote provider does, when it shuts
   * down).
   *
   * @param system the system
   * @param view its view
   */
  static void unregister(ActorSystem system, RemoteMetricsView view) {
    Views.BY_SYSTEM.remove(system, view);
  }
}

/** The registered views, by system. */
final class Views {
  static final Map<ActorSystem, RemoteMetricsView> BY_SYSTEM = new ConcurrentHashMap<>();

  private Views() {}
}
