package dev.troupe.remote.internal.transport;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Address;
import dev.troupe.runtime.spi.InternalActorRef;
import io.netty.channel.Channel;

/**
 * All the transport knows of the node above it: who this node is, how a path that arrived becomes
 * a ref, and who judges a peer's handshake. Implemented by the remote provider; everything an
 * accepted connection delivers goes to the {@link InboundPeer} that {@link #accept} returns.
 */
public interface InboundHost {
  /** @return this node's address (a handshake must name it as its target) */
  Address address();

  /** @return this node's incarnation, told to peers in the handshake acknowledgement */
  long uid();

  /** @return the ref a path that arrived names */
  InternalActorRef resolve(ActorPath path);

  /**
   * Judges the handshake of an accepted connection, which the transport has checked already
   * (magic, version, target address, TLS certificate).
   *
   * @return where the connection's envelopes and notices go from now on
   * @throws Wire.ProtocolException if the handshake is refused, with the reason the peer is told
   */
  InboundPeer accept(Channel channel, Wire.Handshake handshake);
}
