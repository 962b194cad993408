package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Terminated;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.ClusterEvent.MemberDowned;
import dev.troupe.cluster.ClusterEvent.MemberRemoved;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.Contexts;
import dev.troupe.cluster.internal.core.Partitions.Node;
import dev.troupe.cluster.internal.jgroups.EngineFaults;
import dev.troupe.cluster.internal.jgroups.JGroupsProviderFactory;
import dev.troupe.cluster.spi.MembershipListener;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipView;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Network partitions end to end: actor systems in this JVM on 127.0.0.1 (remoting and the JGroups
 * engine on ephemeral ports) form a cluster, then the network between two sides is cut, both the
 * engine's traffic and remoting's (see {@link Partitions} for how). With the default keep-majority
 * downing, exactly one side stays: the larger one, or on a tie the side holding the lowest address.
 * The other side's systems down themselves and terminate (coordinated shutdown); the side that
 * stays sees each of them {@code MemberDowned} then {@code MemberRemoved(DOWN)}, agrees on the
 * members, and remote watchers of their actors get {@code Terminated(addressTerminated = true)}.
 * Then the network heals: nothing removed comes back and the side that stayed stays one cluster.
 * The last test keeps a removed member's engine alive through the heal, so that JGroups really
 * merges it back into the view, and the cluster ignores it.
 *
 * <p>How the network is cut (details in {@link Partitions}): every node is told whom it no longer
 * hears, in both of its parts, and each cut is applied on both sides. The engine gets JGroups' own
 * {@code DISCARD} in its running stack, ignoring the other side's members, so that heartbeats stop
 * and each side's view drops the other after FD_ALL3's silence and VERIFY_SUSPECT's check, as after
 * a cut cable. Remoting gets its failure injector ({@code troupe.remote.advanced.failure-injector =
 * on}), which sends nothing to the other side: no down decision, leave announcement, watch
 * heartbeat or leaving notice crosses, so each side decides alone. A relay in front of the nodes
 * cannot do this here: every node is on 127.0.0.1, and a relay cannot tell which node a connection
 * comes from without reading the protocol. Healing lifts both cuts and runs a MERGE3 round at once.
 *
 * <p>Timings are short (heartbeat 300 ms, suspicion after 2.5 s, stable-after 3 s): each split
 * decides within about 6 s of the cut. The pause leaves room for a loaded 2-core machine running
 * the four or five nodes in one JVM: a member of the side that stays must never go unheard by its
 * own side for that long, or that side breaks up too (JGroups drops a member it suspects from the
 * view, and only a merge brings it back, later than downing decides).
 */
@Timeout(120)
class ClusterPartitionTest {
  /** How long a decision may take on a loaded 2-core machine: suspicion, stable-after, shutdown. */
  static final Duration DECISION = Duration.ofSeconds(30);
  /** The least time between two merge rounds the test starts: over JGroups' merge timeout (5 s). */
  static final Duration MERGE_ROUND_GAP = Duration.ofSeconds(6);
  /** How long the healed cluster must stay as it is. */
  static final Duration QUIET = Duration.ofSeconds(2);
  static final String TIMINGS = Partitions.CONFIG
      + "troupe.cluster.failure-detector.heartbeat-interval = 300ms\n"
      + "troupe.cluster.failure-detector.acceptable-heartbeat-pause = 2500ms\n"
      + "troupe.cluster.downing.stable-after = 3s\n";

  private final ClusterNodes nodes = new ClusterNodes();
  private final List<MembershipProvider> zombies = new ArrayList<>();

  @AfterEach
  void stop() {
    zombies.forEach(MembershipProvider::close);
    nodes.close();
  }

  @Test
  void oneAgainstTwoTheOldestAloneGoesAndTheTwoStay() {
    List<Node> n = form("split12", 3);
    // the oldest member (the engine's coordinator, the leader) alone on the smaller side
    split(List.of(n.get(0)), List.of(n.get(1), n.get(2)));
  }

  @Test
  void twoAgainstThreeTheThreeStay() {
    List<Node> n = form("split23", 5);
    List<Node> shuffled = new ArrayList<>(n);
    Collections.shuffle(shuffled);
    split(shuffled.subList(0, 2), shuffled.subList(2, 5));
  }

  @Test
  void twoAgainstTwoTheSideWithTheLowestAddressStays() {
    List<Node> n = form("split22", 4);
    List<Node> byAddress = new ArrayList<>(n);
    byAddress.sort(Comparator.comparing(Node::self));
    // the lowest address with the highest, so that neither side is simply "the low ports"
    split(List.of(byAddress.get(1), byAddress.get(2)), List.of(byAddress.get(0), byAddress.get(3)));
  }

  /**
   * A removed member whose engine lives on (a node wedged in its shutdown, say): here a bare
   * JGroups engine that joined the cluster with a node's identity and never downs itself. Cut off,
   * the three systems down and remove it; healed, JGroups merges it back into their engine's view
   * (a {@code MergeView}), and the cluster ignores the removed incarnation: no event about it, the
   * members unchanged.
   */
  @Test
  void aRemovedMemberWhoseEngineLivesOnIsMergedBackByJGroupsAndIgnored() throws Exception {
    String name = "zombie";
    List<Node> n = form(name, 3);
    UniqueAddress ghost = Contexts.node(name, 1, ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE));
    MembershipProvider zombie = new JGroupsProviderFactory().create(Contexts.context(ghost, Set.of(), ""));
    zombies.add(zombie);
    zombie.join(List.of(EngineFaults.endpoint(n.get(0).engine())), new Silent());
    List<TestKit> probes = n.stream().map(x -> ClusterInMemoryTest.probe(x.system())).toList();
    for (TestKit p : probes) {
      ClusterInMemoryTest.next(p, ClusterEvent.MemberUp.class, ghost.address());
    }
    org.jgroups.Address ghostInEngine = EngineFaults.address(zombie);

    EngineFaults.ignore(zombie, n.stream().map(Node::engineAddress).toList());
    for (Node x : n) {
      EngineFaults.ignore(x.engine(), List.of(ghostInEngine));
    }
    for (TestKit p : probes) {
      downedThenRemoved(p, List.of(ghost));
    }
    List<Address> members = n.stream().map(x -> x.system().address()).toList();
    assertMembers(n, members);

    List<TestKit> after = n.stream().map(x -> quietProbe(x.system())).toList();
    EngineFaults.hearAll(zombie);
    for (Node x : n) {
      EngineFaults.hearAll(x.engine());
    }
    List<MembershipProvider> engines = new ArrayList<>(n.stream().map(Node::engine).toList());
    engines.add(zombie);
    TestKit driver = new TestKit(n.get(0).system());
    // a merge round at most every MERGE_ROUND_GAP: a round started while the last merge is still
    // being installed (slowly, on a loaded machine) starts a second merge, which drops a member
    // that has not answered it within JGroups' merge timeout: a live member, unreachable
    long[] lastRound = {System.nanoTime() - MERGE_ROUND_GAP.toNanos()};
    driver.awaitCond(DECISION, Duration.ofMillis(300), "JGroups merges the removed member's engine back into the view",
        () -> {
          if (System.nanoTime() - lastRound[0] >= MERGE_ROUND_GAP.toNanos()) {
            Partitions.mergeRound(engines);
            lastRound[0] = System.nanoTime();
          }
          return n.stream().allMatch(x -> EngineFaults.view(x.engine()).contains(ghostInEngine));
        });
    for (TestKit p : after) {
      p.expectNoMessage(QUIET); // not Joined, not Up, not reachable again: removed is forever
    }
    assertMembers(n, members);
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * Forms the cluster one join at a time, each node through the first once the one before it is Up:
   * what these tests cut is a healthy cluster. (All joining at once through every seed is formation's
   * own test; here it once left a member whose engine another member could not yet address, which
   * its own side then downed before the cut was decided.)
   *
   * @return {@code size} nodes of cluster {@code name}, all Up everywhere, oldest first
   */
  private List<Node> form(String name, int size) {
    List<ActorSystem> s = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      s.add(nodes.start(name, "jgroups", TIMINGS));
    }
    List<TestKit> probes = s.stream().map(ClusterInMemoryTest::probe).toList();
    List<Address> order = new ArrayList<>();
    for (ActorSystem sys : s) {
      Cluster.get(sys).join(s.get(0).address()); // the first founds the cluster
      order.addAll(ClusterInMemoryTest.ups(probes.get(0), 1));
    }
    for (TestKit p : probes.subList(1, size)) {
      assertEquals(order, ClusterInMemoryTest.ups(p, size), "the same members in the same order everywhere");
    }
    List<Node> byAge = new ArrayList<>();
    for (Address a : order) {
      byAge.add(Node.of(s.stream().filter(x -> x.address().equals(a)).findFirst().orElseThrow()));
    }
    return byAge;
  }

  /** @return the side keep-majority keeps: the larger, or on a tie the one with the lowest address */
  static List<Node> keepMajority(List<Node> a, List<Node> b) {
    if (a.size() != b.size()) {
      return a.size() > b.size() ? a : b;
    }
    UniqueAddress lowest = Stream.concat(a.stream(), b.stream()).map(Node::self).min(Comparator.naturalOrder()).orElseThrow();
    return a.stream().anyMatch(x -> x.self().equals(lowest)) ? a : b;
  }

  /** Cuts {@code a} from {@code b} and checks what keep-majority promises; then heals and checks again. */
  private void split(List<Node> a, List<Node> b) {
    List<Node> stay = keepMajority(a, b);
    List<Node> go = stay == a ? b : a;
    List<TestKit> probes = stay.stream().map(x -> ClusterInMemoryTest.probe(x.system())).toList();
    // on each node that stays, a watcher of an actor on each node that goes
    List<Watch> watches = new ArrayList<>();
    for (Node s : stay) {
      for (Node g : go) {
        TestKit there = new TestKit(g.system());
        TestKit watcher = new TestKit(s.system());
        ActorRef remote = ((RuntimeSystem) s.system()).provider().resolveActorRef(there.getRef().path());
        watcher.watch(remote);
        remote.tell("hello", watcher.getRef());
        there.expectMsg(ClusterInMemoryTest.CHANGE, "hello");
        watches.add(new Watch(watcher, remote));
      }
    }

    Partitions.cut(a, b);

    TestKit driver = new TestKit(stay.get(0).system());
    for (Node g : go) {
      driver.awaitResult(DECISION, g.system().getWhenTerminated()); // it downed itself and shut down
      assertEquals(MemberStatus.REMOVED, Cluster.get(g.system()).selfMember().status(), g + " is out");
    }
    for (TestKit p : probes) {
      downedThenRemoved(p, go.stream().map(Node::self).toList());
    }
    List<Address> members = stay.stream().map(x -> x.system().address()).toList();
    assertMembers(stay, members);
    for (Watch w : watches) {
      Terminated t = w.watcher().expectTerminated(DECISION, w.watched());
      assertTrue(t.addressTerminated(), "the watcher of an actor on a removed member: " + t);
    }

    List<TestKit> after = stay.stream().map(x -> quietProbe(x.system())).toList();
    Partitions.heal(stay);
    for (TestKit p : after) {
      p.expectNoMessage(QUIET); // nothing removed comes back, nothing else changes
    }
    assertMembers(stay, members);
    List<org.jgroups.Address> engineView = stay.stream().map(Node::engineAddress).toList();
    for (Node s : stay) {
      assertEquals(Set.copyOf(engineView), Set.copyOf(EngineFaults.view(s.engine())), "the engine's view on " + s);
    }
  }

  /**
   * Hears {@code p}'s events until each of {@code gone} is removed, and checks that each was {@code
   * MemberDowned} first, then {@code MemberRemoved(previousStatus DOWN)}, and never anything else
   * after its down.
   */
  static void downedThenRemoved(TestKit p, List<UniqueAddress> gone) {
    List<ClusterEvent> heard = new ArrayList<>();
    Set<UniqueAddress> removed = new HashSet<>();
    p.fishForMessage(DECISION, "MemberRemoved of each of " + gone, m -> {
      if (m instanceof ClusterEvent e && (e instanceof ClusterEvent.MemberEvent || e instanceof ClusterEvent.ReachabilityEvent)) {
        UniqueAddress who = ClusterInMemoryTest.memberOf(e).uniqueAddress();
        if (gone.contains(who)) {
          heard.add(e);
          if (e instanceof MemberRemoved) {
            removed.add(who);
          }
        }
      }
      return removed.size() == gone.size();
    });
    for (UniqueAddress g : gone) {
      List<ClusterEvent> of = heard.stream().filter(e -> ClusterInMemoryTest.memberOf(e).uniqueAddress().equals(g)).toList();
      int down = indexOf(of, MemberDowned.class);
      assertTrue(down >= 0, "MemberDowned of " + g + " among " + of);
      assertTrue(of.subList(0, down).stream().anyMatch(ClusterEvent.UnreachableMember.class::isInstance),
          "UnreachableMember of " + g + " before its down: " + of);
      assertEquals(List.of(MemberDowned.class, MemberRemoved.class), of.subList(down, of.size()).stream()
          .map(Object::getClass).toList(), "the events of " + g + " from its down on: " + of);
      assertEquals(MemberStatus.DOWN, ((MemberRemoved) of.get(of.size() - 1)).previousStatus(), of.toString());
    }
  }

  private static int indexOf(List<ClusterEvent> events, Class<?> type) {
    for (int i = 0; i < events.size(); i++) {
      if (type.isInstance(events.get(i))) {
        return i;
      }
    }
    return -1;
  }

  /** Every node of {@code side} runs, and holds exactly {@code members} (in any order, the same everywhere), all Up. */
  private static void assertMembers(List<Node> side, List<Address> members) {
    List<Address> reference = null;
    for (Node s : side) {
      assertFalse(s.system().getWhenTerminated().toCompletableFuture().isDone(), s + " still runs");
      List<Member> m = Cluster.get(s.system()).state().members();
      List<Address> addresses = m.stream().map(Member::address).toList();
      assertEquals(Set.copyOf(members), Set.copyOf(addresses), "the members on " + s);
      assertEquals(members.size(), addresses.size(), "the members on " + s);
      assertTrue(m.stream().allMatch(x -> x.status() == MemberStatus.UP), m.toString());
      if (reference == null) {
        reference = addresses;
      } else {
        assertEquals(reference, addresses, "the member order on " + s);
      }
    }
  }

  /** A probe that hears member and reachability changes from now on, its snapshot already taken. */
  private static TestKit quietProbe(ActorSystem s) {
    TestKit p = new TestKit(s);
    Cluster.get(s).subscribe(p.getRef(), ClusterEvent.initialStateAsSnapshot(),
        ClusterEvent.MemberEvent.class, ClusterEvent.ReachabilityEvent.class);
    p.expectMsgClass(ClusterInMemoryTest.CHANGE, CurrentClusterState.class);
    return p;
  }

  private record Watch(TestKit watcher, ActorRef watched) {}

  /** A listener for the bare engine, which nobody asks. */
  private static final class Silent implements MembershipListener {
    @Override
    public void viewChanged(MembershipView view) {}

    @Override
    public void suspected(UniqueAddress member) {}

    @Override
    public void unsuspected(UniqueAddress member) {}
  }
}
