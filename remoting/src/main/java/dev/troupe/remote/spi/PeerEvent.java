package dev.troupe.remote.spi;

import dev.troupe.actor.Address;

/**
 * What happened to a peer, as remoting saw it; each names the peer's address and the incarnation
 * (uid) it concerns. Delivered to a {@link PeerListener} in the order remoting saw them for that
 * peer (the same order as the public {@code AssociatedEvent}, {@code DisassociatedEvent} and
 * {@code QuarantinedEvent} on the event stream).
 */
public sealed interface PeerEvent permits PeerEvent.Associated, PeerEvent.Disassociated, PeerEvent.Quarantined {
  /** @return the peer's address */
  Address address();

  /** @return the peer's incarnation; 0 when no handshake ever told it */
  long uid();

  /** The first connection with the peer (either way) completed its handshake. */
  record Associated(Address address, long uid) implements PeerEvent {}

  /** The last connection with the peer closed, or the peer was declared gone. */
  record Disassociated(Address address, long uid) implements PeerEvent {}

  /**
   * The peer's incarnation is quarantined: nothing more is exchanged with it, its actors count as
   * terminated for their watchers; a restarted node (a new uid) is reached again.
   *
   * @param reason why, as remoting logged it
   */
  record Quarantined(Address address, long uid, String reason) implements PeerEvent {}
}
