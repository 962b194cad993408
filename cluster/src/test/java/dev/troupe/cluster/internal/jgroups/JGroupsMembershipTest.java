package dev.troupe.cluster.internal.jgroups;

import static dev.troupe.cluster.internal.Recorder.nodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.Contexts;
import dev.troupe.cluster.internal.Recorder;
import dev.troupe.cluster.spi.EngineMember;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipView;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jgroups.JChannel;
import org.jgroups.Receiver;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.util.ExtendedUUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JGroups engine on loopback, several engines in this JVM: formation, graceful leave, a close
 * (seen by the others as a crash), a rejoin under a new uid, bad endpoints and foreign members.
 * Failure detection runs with the test timings of {@link Contexts} (suspected after about 1 s).
 */
@Timeout(60)
class JGroupsMembershipTest {
  private static final String THREAD = "troupe-cluster-jgroups-";
  private static final String TEST_CONF = "troupe.cluster.jgroups.join-timeout = 1s";
  /** How long formation and graceful changes may take on a loaded 2-core machine. */
  private static final Duration CHANGE = Duration.ofSeconds(15);

  private final List<MembershipProvider> engines = new ArrayList<>();
  private final List<JChannel> channels = new ArrayList<>();

  @AfterEach
  void closeAll() {
    engines.forEach(MembershipProvider::close);
    channels.forEach(JChannel::close);
  }

  private MembershipProvider engine(UniqueAddress self, Set<String> roles) {
    MembershipProvider e = new JGroupsProviderFactory().create(Contexts.context(self, roles, TEST_CONF));
    engines.add(e);
    return e;
  }

  /** Starts {@code count} engines of system {@code system}, the first founding, each later one joining through all earlier ones. */
  private List<Recorder> form(String system, int count, List<UniqueAddress> nodes, List<MembershipProvider> started)
      throws Exception {
    List<Recorder> recorders = new ArrayList<>();
    List<String> endpoints = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      UniqueAddress self = Contexts.node(system, 25520 + i, 100 + i);
      MembershipProvider e = engine(self, Set.of("r" + i, "all"));
      Recorder rec = new Recorder(THREAD);
      endpoints.add(e.join(List.copyOf(endpoints), rec));
      nodes.add(self);
      recorders.add(rec);
      started.add(e);
    }
    for (Recorder rec : recorders) {
      rec.awaitView("holding all " + count + " nodes", v -> v.members().size() == count, CHANGE);
    }
    return recorders;
  }

  @Test
  void fourEnginesFormOneViewWithTheSameOrderEverywhere() throws Exception {
    List<UniqueAddress> nodes = new ArrayList<>();
    List<MembershipProvider> started = new ArrayList<>();
    List<Recorder> recorders = form("formation", 4, nodes, started);

    MembershipView reference = recorders.get(0).awaitView("of 4", v -> v.members().size() == 4, CHANGE);
    assertEquals(nodes, nodes(reference), "members oldest first: the order the nodes joined in");
    for (Recorder rec : recorders) {
      MembershipView v = rec.awaitView("of 4", x -> x.members().size() == 4, CHANGE);
      assertEquals(nodes(reference), nodes(v), "every node sees the same order");
      assertEquals(reference.version(), v.version(), "and the same version for the same view");
      assertFalse(v.healed(), "formation is no merge");
      rec.assertPromisesKept();
    }
    EngineMember third = reference.members().get(2);
    assertEquals(Set.of("r2", "all"), third.roles(), "roles travel with the member");
    for (int i = 0; i < recorders.size(); i++) {
      MembershipView first = recorders.get(i).views().get(0);
      assertTrue(nodes(first).contains(nodes.get(i)), "a node's first view holds itself: " + first);
    }
  }

  /**
   * A node may join through any member, not only through the coordinator (the oldest): after the
   * founder crashed, the survivors are the only seeds a new node can name, and the coordinator is
   * whichever of them is oldest. The seed's discovery answer must lead the joiner to the coordinator.
   */
  @Test
  void aNodeJoinsThroughAMemberThatIsNotTheCoordinator() throws Exception {
    UniqueAddress a = Contexts.node("through", 25530, 130);
    UniqueAddress b = Contexts.node("through", 25531, 131);
    UniqueAddress c = Contexts.node("through", 25532, 132);
    Recorder recA = new Recorder(THREAD);
    Recorder recB = new Recorder(THREAD);
    Recorder recC = new Recorder(THREAD);
    String endpointA = engine(a, Set.of()).join(List.of(), recA);
    String endpointB = engine(b, Set.of()).join(List.of(endpointA), recB);
    recA.awaitView("holding a and b", v -> v.members().size() == 2, CHANGE);

    engine(c, Set.of()).join(List.of(endpointB), recC); // b only: a, the coordinator, is not named

    for (Recorder rec : List.of(recA, recB, recC)) {
      MembershipView v = rec.awaitView("holding a, b and c", x -> x.members().size() == 3, CHANGE);
      assertEquals(List.of(a, b, c), nodes(v), "the joiner is the youngest member");
      rec.assertPromisesKept();
    }
  }

  @Test
  void aGracefulLeaveIsANewViewWithoutTheNode() throws Exception {
    List<UniqueAddress> nodes = new ArrayList<>();
    List<MembershipProvider> started = new ArrayList<>();
    List<Recorder> recorders = form("leave", 3, nodes, started);

    long start = System.nanoTime();
    started.get(1).leave();
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertTrue(took.compareTo(Duration.ofSeconds(5)) < 0, "leave() is bounded (leave-timeout + view acks + 1 s), took " + took);
    int reportsAfterLeave = recorders.get(1).reports().size();

    for (int i : new int[] {0, 2}) {
      MembershipView v =
          recorders.get(i).awaitLastView("without the leaver", x -> nodes(x).equals(List.of(nodes.get(0), nodes.get(2))), CHANGE);
      assertFalse(v.healed());
      assertFalse(
          recorders.get(i).reports().contains(new Recorder.Suspected(nodes.get(1))), "a leave is no suspicion");
      recorders.get(i).assertPromisesKept();
    }
    assertEquals(reportsAfterLeave, recorders.get(1).reports().size(), "the leaver hears nothing after leave()");
    for (Recorder.Report r : recorders.get(1).reports()) {
      if (r instanceof Recorder.ViewReport v) {
        assertTrue(nodes(v.view()).contains(nodes.get(1)), "the leaver is told no view without itself: " + v);
      }
    }
  }

  @Test
  void aClosedEngineIsSuspectedThenDroppedWithinThePause() throws Exception {
    List<UniqueAddress> nodes = new ArrayList<>();
    List<MembershipProvider> started = new ArrayList<>();
    List<Recorder> recorders = form("crash", 3, nodes, started);
    UniqueAddress crashed = nodes.get(2);
    long formed = recorders.get(0).lastView().version();

    long start = System.nanoTime();
    started.get(2).close();
    // a closed socket is seen at once, then VERIFY_SUSPECT's second look (200 ms here): well within
    // the pause (1 s) + a margin for a loaded machine
    Duration bound = Contexts.PAUSE.plusSeconds(4);
    for (int i : new int[] {0, 1}) {
      recorders.get(i).awaitView("without the closed node", v -> v.version() > formed && !nodes(v).contains(crashed), bound);
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertTrue(took.compareTo(bound) < 0, "dropped after " + took);

    // the coordinator (the oldest) acts on its own confirmed suspicion, which passes the tap first
    List<Recorder.Report> coordinator = recorders.get(0).reports();
    int suspected = coordinator.indexOf(new Recorder.Suspected(crashed));
    int dropped = -1;
    for (int k = 0; k < coordinator.size(); k++) {
      if (coordinator.get(k) instanceof Recorder.ViewReport v && v.view().version() > formed) {
        dropped = k;
        break;
      }
    }
    assertTrue(suspected >= 0 && suspected < dropped, "suspected before the view that drops it: " + coordinator);
    for (Recorder rec : recorders.subList(0, 2)) {
      assertEquals(List.of(nodes.get(0), nodes.get(1)), nodes(rec.lastView()));
      rec.assertPromisesKept();
    }
  }

  @Test
  void theMemberThatWatchedAClosedEngineReportsItConfirmedDead() throws Exception {
    List<UniqueAddress> nodes = new ArrayList<>();
    List<MembershipProvider> started = new ArrayList<>();
    List<Recorder> recorders = form("dead", 3, nodes, started);
    UniqueAddress crashed = nodes.get(2);
    // FD_SOCK2 watches the next member of the view: the node's left neighbour must hold its
    // connection to it before it dies. Right after a join the neighbour may not know where the new
    // member listens yet: it then suspects it and watches the next one until the group finds it
    // alive, and a node closed in that moment is dropped by heartbeats alone, with no closed
    // connection to see (and so, rightly, no sure death).
    awaitWatched(started.get(1), started.get(2), CHANGE);

    started.get(2).close(); // its sockets close, as when its process is killed
    Duration bound = Contexts.PAUSE.plusSeconds(9);
    for (Recorder rec : recorders.subList(0, 2)) {
      rec.awaitLastView("without the closed node", v -> !nodes(v).contains(crashed), bound);
    }
    // FD_SOCK2 watches the next member of the view: the closed node's left neighbour saw its
    // connection close, then the view that dropped it
    recorders.get(1).awaitReport("Dead(" + crashed + ")", new Recorder.Dead(crashed)::equals, bound);
    for (Recorder rec : recorders.subList(0, 2)) {
      assertTrue(rec.reports().stream().noneMatch(r -> r instanceof Recorder.Dead d && !d.member().equals(crashed)),
          "nobody else is dead: " + rec.reports());
      rec.assertPromisesKept();
    }
  }

  @Test
  void aSilentMemberIsDroppedButNeverReportedDead() throws Exception {
    List<UniqueAddress> nodes = new ArrayList<>();
    List<MembershipProvider> started = new ArrayList<>();
    List<Recorder> recorders = form("silent", 3, nodes, started);
    UniqueAddress quiet = nodes.get(2);

    // its engine's traffic is dropped both ways; its sockets stay open, as with a frozen process
    JChannel ch = ((JGroupsMembershipProvider) started.get(2)).channel();
    ch.getProtocolStack().insertProtocol(new org.jgroups.protocols.DISCARD().discardAll(true).setAddress(ch.getAddress()),
        org.jgroups.stack.ProtocolStack.Position.ABOVE, org.jgroups.protocols.TP.class);
    for (Recorder rec : recorders.subList(0, 2)) {
      rec.awaitLastView("without the silent node", v -> !nodes(v).contains(quiet), CHANGE);
    }
    // one more view: whatever the reporters said about the drop, they said before it
    UniqueAddress late = Contexts.node("silent", 25529, 199);
    engine(late, Set.of()).join(List.of(endpointOf(started.get(0))), new Recorder(THREAD));
    for (Recorder rec : recorders.subList(0, 2)) {
      rec.awaitLastView("with a late joiner", v -> nodes(v).contains(late), CHANGE);
    }
    for (Recorder rec : recorders.subList(0, 2)) {
      assertTrue(rec.reports().stream().noneMatch(Recorder.Dead.class::isInstance), "silence is no death: " + rec.reports());
      rec.assertPromisesKept();
    }
  }

  @Test
  void aHealedPartitionIsReportedAsHealed() throws Exception {
    List<UniqueAddress> nodes = new ArrayList<>();
    List<MembershipProvider> started = new ArrayList<>();
    List<Recorder> recorders = form("split", 2, nodes, started);

    // cut all of the engines' traffic both ways (their sockets stay open, as in a network partition)
    List<org.jgroups.protocols.DISCARD> cuts = new ArrayList<>();
    for (MembershipProvider e : started) {
      JChannel ch = ((JGroupsMembershipProvider) e).channel();
      org.jgroups.protocols.DISCARD cut = new org.jgroups.protocols.DISCARD().discardAll(true).setAddress(ch.getAddress());
      ch.getProtocolStack().insertProtocol(cut, org.jgroups.stack.ProtocolStack.Position.ABOVE, org.jgroups.protocols.TP.class);
      cuts.add(cut);
    }
    for (int i = 0; i < 2; i++) {
      UniqueAddress self = nodes.get(i);
      recorders.get(i).awaitLastView("of itself alone", v -> nodes(v).equals(List.of(self)), CHANGE);
    }

    cuts.forEach(cut -> cut.discardAll(false));
    // MERGE3 announces views every 2..5 s and checks every 8 s
    Duration heal = Duration.ofSeconds(30);
    for (Recorder rec : recorders) {
      MembershipView v = rec.awaitLastView("of both again", x -> x.members().size() == 2, heal);
      assertTrue(v.healed(), "a merge is reported as healed: " + v);
      assertEquals(Set.copyOf(nodes), Set.copyOf(nodes(v)));
      rec.assertPromisesKept();
      // each alone closed its connection to the other (FD_SOCK2 closes it in a view of one), but
      // both kept listening: a closed connection from a live member is no death
      assertTrue(rec.reports().stream().noneMatch(Recorder.Dead.class::isInstance), "a split is no death: " + rec.reports());
    }
    assertEquals(nodes(recorders.get(0).lastView()), nodes(recorders.get(1).lastView()), "one order on both sides");
  }

  @Test
  void aNodeThatRejoinsWithANewUidIsANewMember() throws Exception {
    List<UniqueAddress> nodes = new ArrayList<>();
    List<MembershipProvider> started = new ArrayList<>();
    List<Recorder> recorders = form("rejoin", 3, nodes, started);
    UniqueAddress old = nodes.get(1);

    started.get(1).close();
    recorders.get(0).awaitLastView("without the old incarnation", v -> !nodes(v).contains(old), CHANGE);

    UniqueAddress reborn = new UniqueAddress(old.address(), 999);
    MembershipProvider again = engine(reborn, Set.of());
    Recorder rec = new Recorder(THREAD);
    // discovery through the founder's endpoint, as a restarted node would use its seeds
    String founder = endpointOf(started.get(0));
    again.join(List.of(founder), rec);

    List<UniqueAddress> expected = List.of(nodes.get(0), nodes.get(2), reborn);
    for (Recorder r : List.of(recorders.get(0), recorders.get(2), rec)) {
      MembershipView v = r.awaitLastView("with the new incarnation, youngest", x -> nodes(x).equals(expected), CHANGE);
      assertFalse(nodes(v).contains(old), "the old incarnation never comes back");
      r.assertPromisesKept();
    }
  }

  @Test
  void malformedEndpointsAreRefusedNamingTheEndpoint() {
    MembershipProvider e = engine(Contexts.node("badseeds", 25520, 1), Set.of());
    for (String bad : List.of("", "127.0.0.1", "127.0.0.1:", "127.0.0.1:x", "127.0.0.1:0", "127.0.0.1:70000",
        ":7800", "[::1:7800", "::1:7800", "0.0.0.0:7800", "no-such-host.invalid:7800")) {
      IllegalArgumentException thrown =
          assertThrows(IllegalArgumentException.class, () -> e.join(List.of(bad), new Recorder(THREAD)), bad);
      assertTrue(thrown.getMessage().contains("'" + bad + "'"), thrown.getMessage());
    }
  }

  @Test
  void aJoinThatReachesNoMemberFailsInsteadOfFoundingASecondGroup() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    MembershipProvider e = engine(Contexts.node("lonely", 25520, 1), Set.of());
    Recorder rec = new Recorder(THREAD);
    long start = System.nanoTime();
    ConnectException thrown =
        assertThrows(ConnectException.class, () -> e.join(List.of("127.0.0.1:" + closedPort), rec));
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertTrue(thrown.getMessage().contains("127.0.0.1:" + closedPort), thrown.getMessage());
    assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "bounded by join-timeout x attempts, took " + took);
    assertEquals(List.of(), rec.reports(), "a failed join reports nothing");
  }

  @Test
  void anEngineWhoseJoinFailedJoinsWhenAskedAgain() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    // the cluster's core asks the same engine again after a failed join (e.g. seeds not up yet)
    MembershipProvider late = engine(Contexts.node("retry", 25521, 2), Set.of());
    Recorder lateRec = new Recorder(THREAD);
    assertThrows(ConnectException.class, () -> late.join(List.of("127.0.0.1:" + closedPort), lateRec));
    MembershipProvider founder = engine(Contexts.node("retry", 25520, 1), Set.of());
    Recorder founderRec = new Recorder(THREAD);
    String endpoint = founder.join(List.of(), founderRec);
    late.join(List.of(endpoint), lateRec);
    for (Recorder rec : List.of(founderRec, lateRec)) {
      rec.awaitView("of both", v -> v.members().size() == 2, CHANGE);
      rec.assertPromisesKept();
    }
  }

  @Test
  void foreignAndMalformedMembersAreLeftOutOfTheViews() throws Exception {
    List<UniqueAddress> nodes = new ArrayList<>();
    List<MembershipProvider> started = new ArrayList<>();
    List<Recorder> recorders = form("foreign", 2, nodes, started);

    // a JGroups member with no Troupe identity, one with garbage in its identity, one that claims
    // an existing member's identity
    byte[] garbage = {1, 0, (byte) 200, 'x'};
    byte[] stolen = MemberIdentity.encode(nodes.get(0), Set.of());
    List<java.util.function.Supplier<org.jgroups.Address>> forged =
        List.of(
            org.jgroups.util.UUID::randomUUID,
            () -> ExtendedUUID.randomUUID().put("t0", garbage),
            () -> MemberIdentity.address(stolen));
    ViewLatch lastJoined = new ViewLatch(5);
    for (int i = 0; i < forged.size(); i++) {
      JChannel ch = rawChannel("foreign");
      ch.addAddressGenerator(forged.get(i)::get);
      if (i == forged.size() - 1) {
        ch.setReceiver(lastJoined); // before connect: it hears every view this channel installs
      }
      ch.connect(JGroupsMembershipProvider.CLUSTER_PREFIX + "foreign");
      channels.add(ch);
    }
    long lastId = lastJoined.await().getViewId().getId();
    for (Recorder rec : recorders) {
      MembershipView v = rec.awaitView("with the 5-member JGroups view", x -> x.version() >= lastId, CHANGE);
      assertEquals(nodes, nodes(v), "only the Troupe members, each once: " + v);
      rec.assertPromisesKept();
    }
  }

  /**
   * A node's engine whose join timed out (a loaded coordinator answered too late) may have been let
   * in all the same: its channel, closed by the failed join, stays in the others' views until their
   * failure detectors drop it, while the node's next join brings a new channel with the same
   * identity. The left-over channel's death is not the node's: no member may report the node
   * suspected or dead for it, and the node stays in every view. (Before, the first channel stood for
   * the node, so its suspicion marked the live node unreachable for good, and the member watching
   * its socket reported the node dead.)
   */
  @Test
  void theLeftOverChannelOfAFailedJoinDyingIsNotTheNodesDeath() throws Exception {
    List<UniqueAddress> nodes = new ArrayList<>();
    List<MembershipProvider> started = new ArrayList<>();
    List<Recorder> recorders = form("leftover", 2, nodes, started);
    UniqueAddress node = Contexts.node("leftover", 25522, 102);

    JChannel leftOver = rawChannel("leftover");
    try {
      leftOver.addAddressGenerator(() -> MemberIdentity.address(MemberIdentity.encode(node, Set.of())));
      leftOver.connect(JGroupsMembershipProvider.CLUSTER_PREFIX + "leftover");
      long withLeftOver = 0;
      for (Recorder rec : recorders) {
        withLeftOver = Math.max(withLeftOver, rec.awaitView("with the first channel", v -> nodes(v).contains(node), CHANGE).version());
      }
      Recorder nodeRec = new Recorder(THREAD);
      engine(node, Set.of()).join(List.of(endpointOf(started.get(0))), nodeRec);
      long both = withLeftOver;
      long withBoth = 0;
      for (Recorder rec : recorders) {
        withBoth = Math.max(withBoth, rec.awaitView("with the node's second channel too", v -> v.version() > both, CHANGE).version());
      }

      JGroupsMembershipProvider.closeAtOnce(leftOver); // silent, its sockets closed: as the failed join left it
      long dropped = withBoth;
      for (Recorder rec : recorders) {
        MembershipView v = rec.awaitView("without the left-over channel", x -> x.version() > dropped, CHANGE);
        assertEquals(List.of(nodes.get(0), nodes.get(1), node), nodes(v), "the node stays, through its live channel");
      }
      // one more view: whatever the reporters said about the left-over channel, they said before it
      UniqueAddress late = Contexts.node("leftover", 25529, 199);
      engine(late, Set.of()).join(List.of(endpointOf(started.get(0))), new Recorder(THREAD));
      for (Recorder rec : recorders) {
        rec.awaitLastView("with a late joiner", v -> nodes(v).contains(late), CHANGE);
        assertTrue(rec.reports().stream().noneMatch(r -> r.equals(new Recorder.Suspected(node)) || r.equals(new Recorder.Dead(node))),
            "the node was neither suspected nor dead for its left-over channel: " + rec.reports());
        assertTrue(nodes(rec.lastView()).contains(node), "the node is in the last view: " + rec.lastView());
        rec.assertPromisesKept();
      }
    } finally {
      leftOver.close();
    }
  }

  @Test
  void jgroupsLogsThroughSlf4j() {
    new JGroupsProviderFactory().create(Contexts.context(Contexts.node("logs", 25520, 1), Set.of(), TEST_CONF)).close();
    assertTrue(JGroupsLogging.throughSlf4j(), "JGroups' loggers are slf4j's");
  }

  /** A channel on Troupe's stack but without a Troupe identity, joining through {@code seed}. */
  private JChannel rawChannel(String system) throws Exception {
    JGroupsSettings s = JGroupsSettings.from(Contexts.context(Contexts.node(system, 25530, 1), Set.of(), TEST_CONF));
    String founder = endpointOf(engines.get(0));
    return new JChannel(JGroupsStack.build(s, JGroupsMembershipProvider.freePort(s.bindAddress()), List.of(Endpoints.parse(founder)), new SuspicionTap(new SuspicionTap.Sink() {
      @Override
      public void suspected(List<org.jgroups.Address> members) {}

      @Override
      public void unsuspected(org.jgroups.Address member) {}
    })));
  }

  /** Hears a raw channel's views and lets a test wait, bounded, for the first one of a given size. */
  private static final class ViewLatch implements Receiver {
    private final int size;
    private final CountDownLatch reached = new CountDownLatch(1);
    private volatile org.jgroups.View matching;
    private volatile org.jgroups.View last;

    ViewLatch(int size) {
      this.size = size;
    }

    @Override
    public void viewAccepted(org.jgroups.View view) {
      last = view;
      if (view.size() == size && matching == null) {
        matching = view;
        reached.countDown();
      }
    }

    org.jgroups.View await() throws InterruptedException {
      if (!reached.await(CHANGE.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("no view of " + size + " members within " + CHANGE + "; the last one was " + last);
      }
      return matching;
    }
  }

  /** Waits until {@code watcher}'s FD_SOCK2 holds a connection to {@code watched} and suspects no one. */
  private static void awaitWatched(MembershipProvider watcher, MembershipProvider watched, Duration bound) {
    FD_SOCK2 fd = ((JGroupsMembershipProvider) watcher).channel().getProtocolStack().findProtocol(FD_SOCK2.class);
    String target = String.valueOf(((JGroupsMembershipProvider) watched).channel().getAddress());
    long deadline = System.nanoTime() + bound.toNanos();
    // FD_SOCK2 announces no change of the member it watches: its state is polled, 10 ms apart
    // getPingDest() reads "<member> [<its FD_SOCK2 address> <client state>]"
    while (!(fd.getPingDest().startsWith(target + " [") && "CONNECTED".equals(fd.getClientState())
        && fd.getNumSuspectedMembers() == 0)) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("FD_SOCK2 of " + watcher + " did not come to watch " + target + " within " + bound
            + "; it watches " + fd.getPingDest() + ", suspecting " + fd.getNumSuspectedMembers() + " member(s)");
      }
      java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }

  private static String endpointOf(MembershipProvider e) {
    JGroupsMembershipProvider j = (JGroupsMembershipProvider) e;
    return j.endpoint();
  }
}
