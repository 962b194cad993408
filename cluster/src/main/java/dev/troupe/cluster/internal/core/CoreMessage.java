package dev.troupe.cluster.internal.core;

import dev.troupe.actor.Address;
import java.util.Objects;

/**
 * The messages the cluster's core actors send each other over remoting (serialized by {@link
 * ClusterMessageSerializer}). Each names at most one incarnation; none carries anything a peer
 * could make expensive.
 */
public sealed interface CoreMessage {
  /** A joining node asks a seed's core for its engine endpoint. */
  record GetEndpoint() implements CoreMessage {}

  /**
   * A seed's answer to {@link GetEndpoint}.
   *
   * @param endpoint the engine endpoint of the seed, {@code ""} while the seed has not joined
   */
  record Endpoint(String endpoint) implements CoreMessage {
    public Endpoint {
      Objects.requireNonNull(endpoint, "endpoint");
    }
  }

  /**
   * The sender leaves the cluster gracefully (sent to every member before its engine leaves).
   *
   * @param address the leaving node
   * @param uid its incarnation
   */
  record Leaving(Address address, long uid) implements CoreMessage {}

  /**
   * A member acknowledges a {@link Leaving}.
   *
   * @param address the leaving node
   * @param uid its incarnation
   */
  record LeavingAck(Address address, long uid) implements CoreMessage {}

  /**
   * A member downed this incarnation (by hand or by its downing decision).
   *
   * @param address the downed node
   * @param uid its incarnation
   */
  record Down(Address address, long uid) implements CoreMessage {}

  /**
   * Asks the node at {@code address} to leave the cluster ({@code Cluster.leave} of another node).
   *
   * @param address the node that should leave
   */
  record LeaveRequest(Address address) implements CoreMessage {}
}
