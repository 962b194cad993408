package dev.troupe.cluster.internal.jgroups;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.stack.IpAddress;

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
 * <p>A closed connection alone proves nothing: a live member closes it too, when its own view no
 * longer holds this node (a partition of the engine's traffic that spares FD_SOCK2's port, such as
 * a firewall rule for one port, or a view of itself alone). So before anything else the detector
 * tries to connect to every port the member's FD_SOCK2 may listen on (its transport port + 100,
 * + 101, + 102): only when each one <em>refuses</em> the connection is nothing listening there any
 * more, and the closure is reported. A live member (even a frozen one: its kernel still accepts)
 * accepts on its port; a host cut off times out; either way nothing is reported. A process that
 * is stopping may close its connections a moment before its listener, so the probe tries {@value
 * #PROBE_ROUNDS} rounds, {@value #PROBE_INTERVAL_MS} ms apart, and needs one in which every port
 * refuses. Refusals come in well under a millisecond from a reachable host; each try is bounded
 * by {@value #PROBE_TIMEOUT_MS} ms; the probe runs on FD_SOCK2's own thread, only when a watched
 * connection closes. Even then {@link Reporter} counts the closure only when the group confirms the failure soon
 * after (a suspicion confirmed by VERIFY_SUSPECT, or a view without the member).
 *
 * <p>It takes the protocol id of FD_SOCK2, so its headers are FD_SOCK2's and it interoperates with
 * a plain FD_SOCK2.
 */
final class ClosedSocketDetector extends FD_SOCK2 {
  /** The longest one connection attempt of the probe waits. */
  static final int PROBE_TIMEOUT_MS = 250;
  /** Rounds of the probe: a process that is going away may close its connections a moment before its listener. */
  static final int PROBE_ROUNDS = 3;
  /** Pause between two rounds of the probe. */
  static final long PROBE_INTERVAL_MS = 100;

  private final SuspicionTap tap;

  ClosedSocketDetector(SuspicionTap tap) {
    this.tap = tap;
    setId(ClassConfigurator.getProtocolId(FD_SOCK2.class));
  }

  @Override
  protected void connectToNextPingDest(Address closed) {
    if (closed != null && nothingListens(closed)) {
      tap.socketClosed(closed);
    }
    super.connectToNextPingDest(closed);
  }

  /** @return whether every port the member's FD_SOCK2 may listen on refuses a connection */
  private boolean nothingListens(Address member) {
    List<IpAddress> ports;
    try {
      ports = getPhysicalAddresses(member);
    } catch (RuntimeException unknown) { // the transport no longer knows where it was
      return false;
    }
    if (ports == null || ports.isEmpty()) {
      return false;
    }
    for (int round = 0; round < PROBE_ROUNDS; round++) {
      if (round > 0) {
        try {
          Thread.sleep(PROBE_INTERVAL_MS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      if (ports.stream().allMatch(ClosedSocketDetector::refuses)) {
        return true;
      }
    }
    return false;
  }

  static boolean refuses(IpAddress port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(port.getIpAddress(), port.getPort()), PROBE_TIMEOUT_MS);
      return false; // something listens: maybe the member, alive
    } catch (ConnectException refused) {
      return true;
    } catch (IOException | RuntimeException unknown) { // timed out, unreachable: no proof
      return false;
    }
  }
}
