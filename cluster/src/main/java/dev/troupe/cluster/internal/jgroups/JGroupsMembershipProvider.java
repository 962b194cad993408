package dev.troupe.cluster.internal.jgroups;

import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipListener;
import dev.troupe.cluster.spi.MembershipProvider;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jgroups.JChannel;
import org.jgroups.PhysicalAddress;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.protocols.DISCARD;
import org.jgroups.protocols.TP;
import org.jgroups.stack.IpAddress;
import org.jgroups.stack.Protocol;
import org.jgroups.stack.ProtocolStack;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's JGroups engine: a {@link JChannel} on the fixed stack of {@link JGroupsStack}, in the
 * JGroups cluster {@code troupe-<system name>}.
 *
 * <ul>
 *   <li>Identity: each member's {@code UniqueAddress} and roles ride in its JGroups address (an
 *       {@code ExtendedUUID}, see {@link MemberIdentity}); a fresh random UUID per join, so a node
 *       that rejoins (even with the same Troupe address) is a new JGroups member. A join that timed
 *       out may have been let in all the same: its closed channel stays in the others' views, beside
 *       the node's next one, until it is dropped; {@link Reporter} tells its death from the node's.
 *   <li>Views: JGroups' member order, which is join order with the coordinator (the oldest) first
 *       and is the same on every member of one view; after a merge, the order the merge leader
 *       chose, again the same everywhere. The version is the view id's number, which JGroups
 *       increases with each view (a merge takes one above the highest merged); {@code healed} is
 *       true for a JGroups {@code MergeView}.
 *   <li>Suspicions: confirmed ones, heard through {@link SuspicionTap}; JGroups removes a confirmed
 *       suspect from the view right after, so {@code suspected} usually comes just before the view
 *       that drops the member. A member whose failure detector is slower than the coordinator's may
 *       see only the new view. A member is reported {@code confirmedDead} instead when this node's
 *       FD_SOCK2 saw its connection closed by the other end, nothing listening at its port any more,
 *       and, soon after, the view dropped it or its suspicion was confirmed (see {@link Reporter}).
 *   <li>Reports: on a thread of the engine's own, see {@link Reporter}.
 *   <li>Join: with endpoints, a join that reaches no coordinator within {@code join-timeout} x 3
 *       attempts fails with a {@link ConnectException} (JGroups would found a group of one
 *       instead: a second cluster); without endpoints it founds the group. A failed join leaves the
 *       engine as it was before it: the cluster tries again (with a new channel) at its next seed
 *       round.
 *   <li>{@code leave()}: {@code JChannel.disconnect()} (the coordinator is told, the others' next
 *       view lacks this node), bounded by {@code leave-timeout} plus the view acknowledgement time;
 *       past that the channel is closed at once. {@code close()}: the channel stops without a word
 *       (a {@code DISCARD} below the stack drops whatever would still go out), so the others find
 *       out as from a crash: FD_SOCK2 sees the socket close.
 * </ul>
 */
final class JGroupsMembershipProvider implements MembershipProvider {
  private static final Logger log = LoggerFactory.getLogger(JGroupsMembershipProvider.class);
  /** Prefix of the JGroups cluster name, so that Troupe's groups never meet other JGroups users'. */
  static final String CLUSTER_PREFIX = "troupe-";
  /** Free ports tried for {@code bind-port = 0}. */
  private static final int PORT_TRIES = 5;
  /** GMS's time to collect view acknowledgements (its default), part of the leave bound. */
  private static final Duration VIEW_ACKS = Duration.ofSeconds(2);

  private enum State {
    NEW,
    JOINED,
    CLOSED
  }

  private final MembershipContext context;
  private final JGroupsSettings settings;
  private final byte[] identity;

  // join, leave and close are called one at a time (the SPI's promise); the fields are guarded by
  // this object for the sake of a close() from another thread during a failed join's clean-up
  private State state = State.NEW;
  private JChannel channel;
  private Reporter reporter;
  private volatile String endpoint;

  JGroupsMembershipProvider(MembershipContext context, JGroupsSettings settings, byte[] identity) {
    this.context = context;
    this.settings = settings;
    this.identity = identity;
  }

  @Override
  public String join(List<String> seedEndpoints, MembershipListener listener) throws Exception {
    Objects.requireNonNull(listener, "listener");
    List<PhysicalAddress> seeds = Endpoints.parse(seedEndpoints);
    synchronized (this) {
      if (state != State.NEW) {
        throw new IllegalStateException("join is called once per engine; this one is " + state);
      }
      state = State.JOINED;
    }
    String node = context.self().toString();
    // a closed connection counts when the group confirms the failure within the failure detector's
    // pause (the coordinator's second look) plus the time GMS takes to install the view
    Reporter r = new Reporter(listener, node, settings.silenceTimeout().plus(settings.verifyTimeout()).plus(VIEW_ACKS));
    JChannel ch;
    try {
      ch = connect(seeds, r);
      View first = ch.getView();
      if (!seeds.isEmpty() && (first == null || first.size() < 2)) {
        closeAtOnce(ch);
        throw new ConnectException(
            "no member of cluster '" + context.clusterName() + "' answered at " + seedEndpoints + " within "
                + settings.joinTimeout().toMillis() + " ms x " + JGroupsStack.JOIN_ATTEMPTS + " attempts");
      }
    } catch (Exception | Error e) {
      r.stop();
      unjoined();
      throw e;
    }
    synchronized (this) {
      channel = ch;
      reporter = r;
    }
    r.open();
    IpAddress bound = (IpAddress) ch.getProtocolStack().getTransport().localPhysicalAddress();
    endpoint = Endpoints.format(settings.bindAddress(), bound.getPort());
    return endpoint;
  }

  /** @return the channel once joined, else null (for measurements and tests in this package) */
  synchronized JChannel channel() {
    return channel;
  }

  /** @return this engine's endpoint once joined, else null */
  String endpoint() {
    return endpoint;
  }

  @Override
  public void leave() {
    JChannel ch;
    synchronized (this) {
      ch = channel;
      if (state != State.JOINED || ch == null) {
        state = State.CLOSED;
        return;
      }
      state = State.CLOSED;
      reporter.stop();
    }
    Thread leaving =
        new Thread(
            () -> {
              try {
                ch.disconnect();
                ch.close();
              } catch (RuntimeException e) {
                log.debug("{}: leaving the group failed", context.self(), e);
              }
            },
            "troupe-cluster-jgroups-leave-" + context.self());
    leaving.setDaemon(true);
    leaving.start();
    Duration bound = settings.leaveTimeout().plus(VIEW_ACKS).plusSeconds(1);
    try {
      leaving.join(bound.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (leaving.isAlive()) {
      log.warn("{}: leaving the group took longer than {} ms; closing the engine at once", context.self(), bound.toMillis());
      closeAtOnce(ch);
    }
  }

  @Override
  public void close() {
    JChannel ch;
    synchronized (this) {
      ch = channel;
      State was = state;
      state = State.CLOSED;
      if (was != State.JOINED || ch == null) {
        return;
      }
      reporter.stop();
    }
    closeAtOnce(ch);
  }

  /**
   * Builds the channel and connects it. JGroups refuses an ephemeral transport port with static
   * discovery (TCPPING), so for {@code bind-port = 0} the engine picks a free port itself and, should
   * another process take it before the transport binds it, tries again with another (5 tries).
   */
  private JChannel connect(List<PhysicalAddress> seeds, Reporter r) throws Exception {
    int tries = settings.bindPort() == 0 ? PORT_TRIES : 1;
    for (int attempt = 1; ; attempt++) {
      int port = settings.bindPort() != 0 ? settings.bindPort() : freePort(settings.bindAddress());
      SecretGate gate =
          settings.authSecret().isEmpty()
              ? null
              : new SecretGate(settings.authSecret(), CLUSTER_PREFIX + context.clusterName(), context.self().toString());
      JChannel ch = new JChannel(JGroupsStack.build(settings, port, seeds, new SuspicionTap(r), gate));
      ch.setName(context.self().toString());
      ch.addAddressGenerator(() -> gate == null ? MemberIdentity.address(identity) : gate.sign(MemberIdentity.address(identity)));
      ch.setReceiver(
          new Receiver() {
            @Override
            public void viewAccepted(View view) {
              r.view(view);
            }
          });
      try {
        ch.connect(CLUSTER_PREFIX + context.clusterName());
        return ch;
      } catch (Exception e) {
        closeAtOnce(ch);
        if (attempt >= tries || !causedByBind(e)) {
          throw e;
        }
        log.debug("{}: port {} was taken before the engine could bind it; trying another", context.self(), port);
      }
    }
  }

  static int freePort(InetAddress host) throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, host)) {
      return s.getLocalPort();
    }
  }

  private static boolean causedByBind(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BindException) {
        return true;
      }
    }
    return false;
  }

  /** After a failed join: the engine may join again (its channel is closed already), unless closed meanwhile. */
  private synchronized void unjoined() {
    if (state == State.JOINED) {
      state = State.NEW;
    }
  }

  /**
   * Stops a channel at once, as a crashed process would: a {@code DISCARD} above the transport drops
   * whatever the stopping protocols would still send (not even a leave request goes out), then the
   * stack stops and releases its sockets.
   */
  static void closeAtOnce(JChannel ch) {
    ProtocolStack stack = ch.getProtocolStack();
    try {
      if (ch.isConnected()) {
        DISCARD drop = new DISCARD().discardAll(true).setAddress(ch.getAddress());
        stack.insertProtocol(drop, ProtocolStack.Position.ABOVE, TP.class);
      }
    } catch (Exception | Error e) {
      log.debug("could not silence the channel before closing it", e);
    }
    try {
      stack.stopStack(ch.getClusterName());
      stack.destroy();
    } catch (RuntimeException e) {
      log.debug("closing the channel failed", e);
    }
  }
}
