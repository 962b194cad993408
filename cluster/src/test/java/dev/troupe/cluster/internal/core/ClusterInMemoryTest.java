package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.CoordinatedShutdown;
import dev.troupe.actor.Terminated;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.ClusterEvent.MemberDowned;
import dev.troupe.cluster.ClusterEvent.MemberExited;
import dev.troupe.cluster.ClusterEvent.MemberLeft;
import dev.troupe.cluster.ClusterEvent.MemberRemoved;
import dev.troupe.cluster.ClusterEvent.MemberUp;
import dev.troupe.cluster.ClusterEvent.UnreachableMember;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.internal.inmemory.InMemoryCluster;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cluster wired end to end with the in-memory engine: three actor systems in this JVM, talking
 * over remoting on 127.0.0.1 (port 0), form a cluster through their seeds, leave gracefully, and
 * remove a crashed member after downing; bad configuration names its key.
 */
@Timeout(60)
class ClusterInMemoryTest {
  /** How long a change may take on a loaded 2-core machine. */
  static final Duration CHANGE = Duration.ofSeconds(15);

  private final ClusterNodes nodes = new ClusterNodes();

  @AfterEach
  void stop() {
    nodes.close();
  }

  /** Subscribes a probe on {@code system} to member events (and reachability), as events. */
  static TestKit probe(ActorSystem system) {
    TestKit p = new TestKit(system);
    Cluster.get(system).subscribe(p.getRef(), ClusterEvent.initialStateAsEvents(),
        ClusterEvent.MemberEvent.class, ClusterEvent.ReachabilityEvent.class);
    return p;
  }

  /** @return the next event of {@code type} about {@code who}, skipping others; fails after {@link #CHANGE} */
  static <E extends ClusterEvent> E next(TestKit probe, Class<E> type, Address who) {
    Object o = probe.fishForMessage(CHANGE, type.getSimpleName() + " of " + who,
        m -> type.isInstance(m) && who.equals(memberOf(m).address()));
    return type.cast(o);
  }

  static Member memberOf(Object event) {
    if (event instanceof ClusterEvent.MemberEvent m) {
      return member(m);
    }
    if (event instanceof UnreachableMember u) {
      return u.member();
    }
    if (event instanceof ClusterEvent.ReachableMember r) {
      return r.member();
    }
    throw new AssertionError("not a member's event: " + event);
  }

  private static Member member(ClusterEvent.MemberEvent e) {
    if (e instanceof ClusterEvent.MemberJoined j) {
      return j.member();
    } else if (e instanceof MemberUp u) {
      return u.member();
    } else if (e instanceof MemberLeft l) {
      return l.member();
    } else if (e instanceof MemberExited x) {
      return x.member();
    } else if (e instanceof MemberDowned d) {
      return d.member();
    } else if (e instanceof MemberRemoved r) {
      return r.member();
    }
    throw new AssertionError("unknown member event " + e);
  }

  /** @return the addresses of the first {@code n} MemberUp events the probe hears, in order */
  static List<Address> ups(TestKit probe, int n) {
    List<Address> ups = new ArrayList<>();
    while (ups.size() < n) {
      Object o = probe.fishForMessage(CHANGE, "MemberUp number " + (ups.size() + 1), m -> m instanceof MemberUp);
      ups.add(((MemberUp) o).member().address());
    }
    return ups;
  }

  /** Three nodes joined one by one through the first (which founds the cluster), all Up everywhere. */
  List<ActorSystem> formByJoin(String name, String engine) {
    List<ActorSystem> s = List.of(nodes.start(name, engine), nodes.start(name, engine), nodes.start(name, engine));
    List<TestKit> probes = s.stream().map(ClusterInMemoryTest::probe).toList();
    Address first = s.get(0).address();
    for (ActorSystem sys : s) {
      Cluster.get(sys).join(first);
    }
    for (TestKit p : probes) {
      ups(p, 3);
    }
    return s;
  }

  @Test
  void threeSystemsJoiningThroughTheirSeedsFormOneClusterWithTheSameOrderEverywhere() throws Exception {
    String name = "formation";
    List<ActorSystem> s = List.of(nodes.start(name, "in-memory"), nodes.start(name, "in-memory"),
        nodes.start(name, "in-memory"));
    List<Address> seeds = s.stream().map(ActorSystem::address).toList();
    List<TestKit> probes = s.stream().map(ClusterInMemoryTest::probe).toList();
    CountDownLatch up = new CountDownLatch(3);
    for (ActorSystem sys : s) {
      Cluster.get(sys).registerOnMemberUp(up::countDown);
      Cluster.get(sys).joinSeedNodes(seeds);
    }

    List<Address> reference = ups(probes.get(0), 3);
    assertEquals(seeds.get(0), reference.get(0), "the first seed founds the cluster and is Up first");
    for (int i = 1; i < 3; i++) {
      assertEquals(reference, ups(probes.get(i), 3), "MemberUp events in the same order on node " + i);
    }
    assertTrue(up.await(CHANGE.toMillis(), TimeUnit.MILLISECONDS), "registerOnMemberUp ran on every node");
    for (ActorSystem sys : s) {
      Cluster c = Cluster.get(sys);
      List<Member> members = c.state().members();
      assertEquals(reference, members.stream().map(Member::address).toList(), "member order of " + sys.address());
      assertTrue(members.stream().allMatch(m -> m.status() == MemberStatus.UP), members.toString());
      assertEquals(MemberStatus.UP, c.selfMember().status());
      assertEquals(reference.get(0), c.state().leader().orElseThrow(), "the leader is the oldest member");
    }
    assertEquals(3, InMemoryCluster.members(name).size(), "the engine holds all three");
  }

  @Test
  void aNodeJoinsThroughTheSeedNodesOfItsConfigurationAtStart() {
    ActorSystem seed = nodes.start("configured", "in-memory");
    TestKit onSeed = probe(seed);
    Cluster.get(seed).join(seed.address()); // founds

    ActorSystem joiner = nodes.start("configured", "in-memory",
        "troupe.cluster.seed-nodes = [\"" + seed.address() + "\"]");

    assertEquals(List.of(seed.address(), joiner.address()), ups(onSeed, 2));
    new TestKit(joiner).awaitCond(CHANGE, Duration.ofMillis(20), "the joiner sees itself Up",
        () -> Cluster.get(joiner).selfMember().status() == MemberStatus.UP);
  }

  @Test
  void aGracefulLeaveIsLeftExitedRemovedOnTheOthersAndTheLeaverTerminates() throws Exception {
    List<ActorSystem> s = formByJoin("leave", "in-memory");
    TestKit onA = probe(s.get(0));
    TestKit onB = probe(s.get(1));
    ActorSystem leaver = s.get(2);
    Address c = leaver.address();
    CountDownLatch removed = new CountDownLatch(1);
    Cluster.get(leaver).registerOnMemberRemoved(removed::countDown);

    Cluster.get(s.get(0)).leave(c); // asked of another node: that node leaves

    for (TestKit p : List.of(onA, onB)) {
      next(p, MemberLeft.class, c);
      next(p, MemberExited.class, c);
      MemberRemoved r = next(p, MemberRemoved.class, c);
      assertEquals(MemberStatus.EXITING, r.previousStatus(), r.toString());
    }
    new TestKit(s.get(0)).awaitResult(CHANGE, leaver.getWhenTerminated());
    assertTrue(removed.await(1, TimeUnit.SECONDS), "registerOnMemberRemoved ran on the leaver");
    for (ActorSystem sys : s.subList(0, 2)) {
      assertEquals(2, Cluster.get(sys).state().members().size(), Cluster.get(sys).state().toString());
    }
  }

  @Test
  void terminatingTheSystemLeavesGracefullyThroughCoordinatedShutdown() throws Exception {
    List<ActorSystem> s = formByJoin("terminate", "in-memory");
    TestKit onA = probe(s.get(0));
    ActorSystem leaver = s.get(1);
    Address b = leaver.address();

    List<String> phases = CoordinatedShutdown.get(leaver).phases();
    assertTrue(phases.indexOf("service-requests-done") < phases.indexOf("cluster-leave")
        && phases.indexOf("cluster-leave") < phases.indexOf("cluster-exiting")
        && phases.indexOf("cluster-exiting") < phases.indexOf("service-stop"), phases.toString());

    leaver.terminate();

    next(onA, MemberLeft.class, b);
    next(onA, MemberExited.class, b);
    assertEquals(MemberStatus.EXITING, next(onA, MemberRemoved.class, b).previousStatus());
    new TestKit(s.get(0)).awaitResult(CHANGE, leaver.getWhenTerminated());
  }

  @Test
  void aCrashedMemberIsUnreachableThenDownedAndRemovedAndItsActorsWatchersAreTold() throws Exception {
    List<ActorSystem> s = formByJoin("crash", "in-memory");
    ActorSystem a = s.get(0);
    ActorSystem victim = s.get(2);
    TestKit onA = probe(a);
    TestKit onB = probe(s.get(1));
    TestKit there = new TestKit(victim);
    TestKit watcher = new TestKit(a);
    ActorRef remote = ((RuntimeSystem) a).provider().resolveActorRef(there.getRef().path());
    watcher.watch(remote);
    remote.tell("hello", watcher.getRef());
    there.expectMsg(CHANGE, "hello");

    InMemoryCluster.crash("crash", Cluster.get(victim).selfUniqueAddress());

    Address v = victim.address();
    for (TestKit p : List.of(onA, onB)) {
      next(p, UnreachableMember.class, v);
      next(p, MemberDowned.class, v);
      assertEquals(MemberStatus.DOWN, next(p, MemberRemoved.class, v).previousStatus());
    }
    Terminated t = watcher.expectTerminated(CHANGE, remote);
    assertTrue(t.addressTerminated(), "the watcher of an actor on the removed member: " + t);
    assertEquals(2, Cluster.get(a).state().members().size(), Cluster.get(a).state().toString());
  }

  @Test
  void aDownByHandRemovesTheMemberEverywhereAndItShutsDown() {
    List<ActorSystem> s = formByJoin("down", "in-memory");
    TestKit onB = probe(s.get(1));
    ActorSystem downed = s.get(2);
    Address c = downed.address();

    Cluster.get(s.get(0)).down(c);

    next(onB, MemberDowned.class, c);
    assertEquals(MemberStatus.DOWN, next(onB, MemberRemoved.class, c).previousStatus());
    new TestKit(s.get(0)).awaitResult(CHANGE, downed.getWhenTerminated());
    assertEquals(MemberStatus.REMOVED, Cluster.get(downed).selfMember().status());
  }

  @Test
  void aDownFromANodeThatIsNoMemberIsIgnored() {
    List<ActorSystem> s = formByJoin("stranger", "in-memory");
    TestKit onA = probe(s.get(0));
    ups(onA, 3); // the initial state
    ActorSystem stranger = nodes.start("stranger", "in-memory"); // same name, never joined
    TestKit sender = new TestKit(stranger);
    Cluster target = Cluster.get(s.get(1));
    ActorRef core = ((RuntimeSystem) stranger).provider().resolveActorRef(ClusterImpl.coreAt(s.get(0).address()));

    core.tell(new CoreMessage.Down(target.selfAddress(), target.selfUniqueAddress().uid()), sender.getRef());

    onA.expectNoMessage(Duration.ofSeconds(1));
    assertEquals(3, Cluster.get(s.get(0)).state().members().size(), Cluster.get(s.get(0)).state().toString());
  }

  @Test
  void aMalformedSeedFailsCreateNamingTheKey() {
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> nodes.start("badseed", "in-memory", "troupe.cluster.seed-nodes = [\"not-an-address\"]"));
    assertTrue(e.getMessage().contains("troupe.cluster.seed-nodes"), e.getMessage());
  }

  @Test
  void anUnknownEngineFailsCreateNamingTheKey() {
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> nodes.start("badengine", "no-such-engine"));
    assertTrue(e.getMessage().contains("troupe.cluster.membership.provider"), e.getMessage());
  }

  @Test
  void clusterGetOnASystemWithoutTheClusterProviderNamesTheKey() {
    ActorSystem local = ActorSystem.create("plain", com.typesafe.config.ConfigFactory.parseString(
        "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off"));
    try {
      ConfigurationException e = assertThrows(ConfigurationException.class, () -> Cluster.get(local));
      assertTrue(e.getMessage().contains("troupe.actor.provider"), e.getMessage());
    } finally {
      TestKit.shutdownActorSystem(local);
    }
  }
}
