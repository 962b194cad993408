package dev.troupe.cluster.internal.jgroups;

import java.util.ArrayList;
import java.util.List;
import org.jgroups.PhysicalAddress;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;
import org.jgroups.util.TLSClientAuth;

/**
 * The one JGroups protocol stack Troupe runs, built in code (users never edit JGroups XML), bottom
 * to top. The engine carries membership only (a few small messages per view change, heartbeats),
 * so the stack has no flow control, fragmentation or state transfer.
 *
 * <dl>
 *   <dt>TCP
 *   <dd>The transport, on its own port: {@code troupe.cluster.jgroups.bind-hostname} and {@code
 *       bind-port}, exactly that port ({@code port_range = 0}; for 0 the engine picks a free one, as
 *       JGroups takes no ephemeral port with static discovery); no multicast, no
 *       diagnostics socket (JGroups turns its probe handler off for stacks built in code, and this
 *       one never turns it on). {@code tcp_nodelay} on: view installation is a few small messages
 *       that wait on each other's acknowledgements. A message over 8 MiB closes the connection it came
 *       on (a peer's length prefix never makes the engine allocate more; a view of 1,000 members
 *       with their identities is about 2 MiB). Connects time out after 500 ms (a member on
 *       loopback or a LAN answers in far less, and a dead one should not hold up a view).
 *       When remoting runs TLS, every connection runs TLS 1.3 with remoting's key and trust stores
 *       ({@link JGroupsSettings#tls()}) and requires the peer's certificate: a node without a
 *       trusted one cannot connect. A connection whose greeting (or TLS handshake) does not arrive
 *       within 1 s is closed (JGroups' {@code peer_addr_read_timeout}).
 *   <dt>{@link SecretGate}
 *   <dd>Only with {@code auth-secret}: drops every message whose sender's address does not carry
 *       the HMAC of the cluster's secret, before any protocol above reads it.
 *   <dt>TCPPING
 *   <dd>Discovery from the endpoints given to {@code join} (empty: this node founds the group),
 *       each exactly ({@code port_range = 0}); hosts learned later (members that joined through
 *       this node) are kept, so that MERGE3 can find a lost side again after a partition.
 *   <dt>MERGE3
 *   <dd>Heals partitions: every member announces its view every 2..5 s (random within the range,
 *       so that members do not all wake at once) and the group checks for split views every 8 s
 *       (JGroups' default of 1.6 x the upper bound); a merge then installs a {@code MergeView},
 *       which the engine reports with {@code healed = true}.
 *   <dt>FD_SOCK2
 *   <dd>A closed socket: each member holds a TCP connection to its neighbour in the view; when a
 *       process dies its kernel closes that connection and the neighbour suspects it at once (as
 *       {@link ClosedSocketDetector}, which also tells the engine which connection closed). It
 *       listens on the transport's address (never the wildcard) and port + 100 (up to + 103 when
 *       taken): a firewall must let those through too.
 *   <dt>{@link FdSocketCap}
 *   <dd>Caps a message on FD_SOCK2's port at 64 KiB (JGroups leaves it unbounded there).
 *   <dt>FD_ALL3 ({@link HeardHeartbeats})
 *   <dd>Missed heartbeats (a frozen process, a cut cable, where no socket closes): every member
 *       multicasts a heartbeat each {@code troupe.cluster.failure-detector.heartbeat-interval} and
 *       suspects one silent for {@link JGroupsSettings#silenceTimeout()}; it remembers when it last
 *       heard each member.
 *   <dt>VERIFY_SUSPECT ({@link HeardVerifySuspect})
 *   <dd>A second look before a suspicion stands: the suspect is asked directly and has {@link
 *       JGroupsSettings#verifyTimeout()} (at most one heartbeat interval) to answer; anything heard
 *       from it meanwhile (its next heartbeat) answers too. Silence plus verification is about {@code
 *       acceptable-heartbeat-pause}.
 *   <dt>NAKACK2, UNICAST3, STABLE
 *   <dd>Reliable, ordered group and point-to-point delivery for GMS's own messages, with JGroups'
 *       defaults (STABLE's gossip every 20 s keeps the idle cost low); NAKACK2 retransmits by
 *       unicast, since TCP has no multicast to retransmit on.
 *   <dt>{@link SuspicionTap}
 *   <dd>Troupe's listener for confirmed suspicions, between the reliability layers and GMS; it
 *       holds back the suspicion of a member heard while it was being verified.
 *   <dt>GMS
 *   <dd>Views. {@code join-timeout} (default 2 s) bounds discovery and the wait for the
 *       coordinator's answer, 3 tries at most (a join that finds no coordinator fails rather than
 *       founding a second group, see {@link JGroupsMembershipProvider}); a node that founds the group
 *       (no endpoints) waits 10 ms instead, having no one to discover; {@code leave-timeout}
 *       (default 1 s) bounds a graceful leave. Loopback tests finish either in milliseconds; the
 *       defaults leave room for a loaded machine. No printing of the local address to stdout.
 * </dl>
 */
final class JGroupsStack {
  private JGroupsStack() {}

  /** A larger message from a peer closes its connection: views of 1,000 members fit several times. */
  static final int MAX_MESSAGE_BYTES = 8 << 20;

  /** How long a founding node's discovery waits (no one to find: TCPPING has no hosts). */
  static final long FOUNDING_DISCOVERY_MS = 10;

  /** Tries of discovery + join request before a join gives up. */
  static final int JOIN_ATTEMPTS = 3;

  /** How long an accepted connection has for its greeting (and, with TLS, its handshake). */
  static final int GREETING_MS = 1_000;

  /** The only TLS version the engine's connections offer or accept, as remoting's. */
  static final String TLS_PROTOCOL = "TLSv1.3";

  /** The stack without {@link SecretGate} (for tests that build a channel of their own). */
  static List<Protocol> build(JGroupsSettings s, int port, List<PhysicalAddress> seeds, SuspicionTap tap) {
    return build(s, port, seeds, tap, null);
  }

  /**
   * @param gate {@code auth-secret}'s check, right above the transport; null when no secret is set
   */
  static List<Protocol> build(
      JGroupsSettings s, int port, List<PhysicalAddress> seeds, SuspicionTap tap, SecretGate gate) {
    TCP tcp = new TCP().setBindAddress(s.bindAddress()).setBindPort(port).setPortRange(0);
    tcp.setSockConnTimeout(500);
    tcp.setMaxLength(MAX_MESSAGE_BYTES);
    tcp.setValue("tcp_nodelay", true);
    tcp.setPeerAddrReadTimeout(GREETING_MS);
    if (s.tls() != null) {
      // remoting's key and trust stores; a peer without a trusted certificate fails the handshake
      tcp.tls().enabled(true).setSSLContext(s.tls()).setProtocols(new String[] {TLS_PROTOCOL})
          .setClientAuth(TLSClientAuth.NEED);
    }

    // a seed answers a discovery with every member it knows, the coordinator among them: a node that
    // names one member that is not the coordinator (the founder gone, say) still finds where to join
    TCPPING ping = new TCPPING().setInitialHosts2(seeds).setPortRange(0);
    ping.returnEntireCache(true);

    MERGE3 merge = new MERGE3().setMinInterval(2_000).setMaxInterval(5_000);

    HeardHeartbeats heartbeats = new HeardHeartbeats();
    heartbeats.setInterval(s.heartbeatInterval().toMillis()).setTimeout(s.silenceTimeout().toMillis());

    VERIFY_SUSPECT verify = new HeardVerifySuspect().setTimeout(s.verifyTimeout().toMillis());
    // heard while being verified: within the verification's time, or one heartbeat before it
    long heardWindow = s.verifyTimeout().plus(s.heartbeatInterval()).toNanos();
    tap.holdBack(m -> heartbeats.heardWithin(m, heardWindow));

    NAKACK2 nakack = new NAKACK2().useMcastXmit(false);

    // founding: there is nobody to discover, so do not wait join-timeout for answers
    long joinTimeout = seeds.isEmpty() ? Math.min(FOUNDING_DISCOVERY_MS, s.joinTimeout().toMillis()) : s.joinTimeout().toMillis();
    GMS gms =
        new GMS()
            .setJoinTimeout(joinTimeout)
            .setLeaveTimeout(s.leaveTimeout().toMillis())
            .setMaxJoinAttempts(JOIN_ATTEMPTS)
            .printLocalAddress(false)
            .printPhysicalAddress(false);

    FD_SOCK2 sockets = new ClosedSocketDetector(tap).setBindAddress(s.bindAddress());

    List<Protocol> stack = new ArrayList<>(List.of(tcp, ping, merge, sockets, heartbeats, verify, nakack, new UNICAST3(), new STABLE(), tap, gms));
    stack.add(stack.indexOf(sockets) + 1, new FdSocketCap());
    if (gate != null) {
      stack.add(1, gate);
    }
    return stack;
  }
}
