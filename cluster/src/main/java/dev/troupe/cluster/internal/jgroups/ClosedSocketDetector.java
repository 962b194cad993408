package dev.troupe.cluster.internal.jgroups;

import org.jgroups.Address;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.FD_SOCK2;

/**
 * JGroups' FD_SOCK2, unchanged on the wire, that also tells the engine when the connection to the
 * member it watches was closed by the other end: the one failure detector evidence that a
 * partition or a paused process cannot give (their sockets stay open; a partition gives timeouts,
 * not a closed connection).
 *
 * <p>How it knows: FD_SOCK2 watches one neighbour of the view over a TCP connection of its own.
 * When that connection closes while this member is not leaving, FD_SOCK2 looks for the next
 * neighbour with {@code connectToNextPingDest(closed)}, naming the member whose connection closed;
 * every other call (a new view, a member no longer suspected) names none. So a non-null argument
 * is exactly "the watched member's connection closed". A member FD_SOCK2 merely failed to connect
 * to (refused, or no answer in time, as with a frozen process) is suspected inside that call and is
 * not reported here.
 *
 * <p>The report alone proves nothing (the connection of a live member could close for some other
 * reason): {@link Reporter} counts it only when the member also leaves the view, or its suspicion is
 * confirmed by VERIFY_SUSPECT, soon after. It takes the protocol id of FD_SOCK2, so its headers
 * are FD_SOCK2's and it interoperates with a plain FD_SOCK2.
 */
final class ClosedSocketDetector extends FD_SOCK2 {
  private final SuspicionTap tap;

  ClosedSocketDetector(SuspicionTap tap) {
    this.tap = tap;
    setId(ClassConfigurator.getProtocolId(FD_SOCK2.class));
  }

  @Override
  protected void connectToNextPingDest(Address closed) {
    if (closed != null) {
      tap.socketClosed(closed);
    }
    super.connectToNextPingDest(closed);
  }
}
