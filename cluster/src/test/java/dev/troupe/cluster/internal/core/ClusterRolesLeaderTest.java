package dev.troupe.cluster.internal.core;

import static dev.troupe.cluster.internal.core.ClusterInMemoryTest.CHANGE;
import static dev.troupe.cluster.internal.core.ClusterInMemoryTest.next;
import static dev.troupe.cluster.internal.core.ClusterInMemoryTest.ups;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.ClusterEvent.LeaderChanged;
import dev.troupe.cluster.ClusterEvent.MemberEvent;
import dev.troupe.cluster.ClusterEvent.MemberJoined;
import dev.troupe.cluster.ClusterEvent.MemberRemoved;
import dev.troupe.cluster.ClusterEvent.MemberUp;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cluster's rules that users build on, end to end with the in-memory engine (several systems in
 * this JVM over remoting on 127.0.0.1): roles seen by every node, {@code min-nr-of-members} holding
 * members {@code JOINING} and {@code registerOnMemberUp} back, the leader the same everywhere and
 * moving when it leaves, with the same events in the same order on every node, and {@code
 * registerOnMemberRemoved} on a leave.
 */
@Timeout(60)
class ClusterRolesLeaderTest {
  /** Long enough for several of the cluster's ticks (every 500 ms with the tests' 2 s stable-after). */
  private static final Duration QUIET = Duration.ofMillis(1500);

  private final ClusterNodes nodes = new ClusterNodes();

  @AfterEach
  void stop() {
    nodes.close();
  }

  /** A probe on {@code system} subscribed to member events and leader changes, as events. */
  private static TestKit subscribed(ActorSystem system) {
    TestKit p = new TestKit(system);
    Cluster.get(system).subscribe(p.getRef(), ClusterEvent.initialStateAsEvents(),
        MemberEvent.class, LeaderChanged.class);
    return p;
  }

  /** @return e.g. {@code MemberUp troupe://sys@127.0.0.1:4711} or {@code LeaderChanged none} */
  private static String describe(Object event) {
    if (event instanceof LeaderChanged l) {
      return "LeaderChanged " + l.leader().map(Address::toString).orElse("none");
    }
    String s = event.getClass().getSimpleName() + " " + ClusterInMemoryTest.memberOf(event).address();
    return event instanceof MemberRemoved r ? s + " " + r.previousStatus() : s;
  }

  /** The next {@code n} events the probe hears, described. */
  private static List<String> events(TestKit probe, int n) {
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      seen.add(describe(probe.expectMsgClass(CHANGE, ClusterEvent.class)));
    }
    return seen;
  }

  /** Joins every system through the first (which founds the cluster) and waits until each sees all Up. */
  private static void formThroughTheFirst(List<ActorSystem> all) {
    List<TestKit> probes = all.stream().map(ClusterInMemoryTest::probe).toList();
    for (ActorSystem s : all) {
      Cluster.get(s).join(all.get(0).address());
    }
    for (TestKit p : probes) {
      ups(p, all.size());
    }
  }

  @Test
  void everyNodeSeesEveryMembersRoles() {
    String name = "roles";
    ActorSystem a = nodes.start(name, "in-memory", "troupe.cluster.roles = [frontend]");
    ActorSystem b = nodes.start(name, "in-memory", "troupe.cluster.roles = [backend, worker]");
    ActorSystem c = nodes.start(name, "in-memory");
    List<ActorSystem> all = List.of(a, b, c);
    formThroughTheFirst(all);

    Map<Address, Set<String>> expected = Map.of(
        a.address(), Set.of("frontend"), b.address(), Set.of("backend", "worker"), c.address(), Set.of());
    for (ActorSystem s : all) {
      CurrentClusterState state = Cluster.get(s).state();
      assertEquals(3, state.members().size(), state.toString());
      for (Member m : state.members()) {
        assertEquals(expected.get(m.address()), m.roles(), "roles of " + m + " as " + s.address() + " sees them");
      }
      Member memberB = state.member(b.address()).orElseThrow();
      assertTrue(memberB.hasRole("worker") && memberB.hasRole("backend"), memberB.toString());
      assertFalse(memberB.hasRole("frontend"), memberB.toString());
      assertTrue(state.member(a.address()).orElseThrow().hasRole("frontend"), state.toString());
      assertTrue(state.member(c.address()).orElseThrow().roles().isEmpty(), state.toString());
    }
    assertEquals(Set.of("backend", "worker"), Cluster.get(b).selfMember().roles(), "selfMember carries the roles");
    // the events carry the roles too
    // (the initial events come in the members' order, which is not the order of `all`)
    TestKit late = ClusterInMemoryTest.probe(c);
    Map<Address, Set<String>> rolesInEvents = new java.util.HashMap<>();
    while (rolesInEvents.size() < all.size()) {
      Object o = late.fishForMessage(ClusterInMemoryTest.CHANGE, "a MemberUp of each member; have " + rolesInEvents,
          m -> m instanceof MemberUp);
      MemberUp up = (MemberUp) o;
      rolesInEvents.put(up.member().address(), up.member().roles());
    }
    assertEquals(expected, rolesInEvents, "the roles the MemberUp events carry");
  }

  @Test
  void withMinNrOfMembersThreeTwoMembersStayJoiningAndAllComeUpInOneOrderWithTheThird() throws Exception {
    String name = "minnr";
    String three = "troupe.cluster.min-nr-of-members = 3";
    ActorSystem a = nodes.start(name, "in-memory", three);
    ActorSystem b = nodes.start(name, "in-memory", three);
    ActorSystem c = nodes.start(name, "in-memory", three);
    List<ActorSystem> all = List.of(a, b, c);
    Map<Address, Optional<MemberStatus>> statusWhenUpRan = new ConcurrentHashMap<>();
    CountDownLatch upRan = new CountDownLatch(3);
    for (ActorSystem s : all) {
      Cluster.get(s).registerOnMemberUp(() -> {
        statusWhenUpRan.put(s.address(), Cluster.get(s).state().member(s.address()).map(Member::status));
        upRan.countDown();
      });
    }
    List<TestKit> probes = all.stream().map(ClusterRolesLeaderTest::subscribed).toList();

    Cluster.get(a).join(a.address());
    Cluster.get(b).join(a.address());
    for (TestKit p : probes.subList(0, 2)) {
      next(p, MemberJoined.class, a.address());
      next(p, MemberJoined.class, b.address());
    }
    for (TestKit p : probes.subList(0, 2)) {
      p.expectNoMessage(QUIET); // no MemberUp and no leader while the cluster holds two
    }
    for (ActorSystem s : List.of(a, b)) {
      CurrentClusterState state = Cluster.get(s).state();
      assertEquals(2, state.members().size(), state.toString());
      assertTrue(state.members().stream().allMatch(m -> m.status() == MemberStatus.JOINING),
          "two members of three stay Joining: " + state);
      assertEquals(Optional.empty(), state.leader(), "no leader while no member is up: " + state);
    }
    assertEquals(3, upRan.getCount(), "registerOnMemberUp ran before the third member joined: " + statusWhenUpRan);

    Cluster.get(c).join(a.address());

    List<Address> expected = List.of(a.address(), b.address(), c.address());
    for (int i = 0; i < 3; i++) {
      assertEquals(expected, ups(probes.get(i), 3), "MemberUp order, oldest first, on " + all.get(i).address());
    }
    assertTrue(upRan.await(CHANGE.toMillis(), TimeUnit.MILLISECONDS), "registerOnMemberUp ran on every node");
    for (ActorSystem s : all) {
      assertEquals(Optional.of(MemberStatus.UP), statusWhenUpRan.get(s.address()),
          "when registerOnMemberUp ran, " + s.address() + " was Up in its state");
      assertEquals(a.address(), Cluster.get(s).state().leader().orElseThrow(), "the oldest leads, on " + s.address());
    }
  }

  @Test
  void theLeaderIsTheSameEverywhereAndMovesWhenItLeavesWithTheSameEventsInTheSameOrder() throws Exception {
    String name = "leader";
    ActorSystem a = nodes.start(name, "in-memory");
    ActorSystem b = nodes.start(name, "in-memory");
    ActorSystem c = nodes.start(name, "in-memory");
    List<ActorSystem> all = List.of(a, b, c);
    formThroughTheFirst(all);
    // the order the engine admitted them in (b and c joined at once): the same on every node
    List<Address> byAge = Cluster.get(a).state().members().stream().map(Member::address).toList();
    assertEquals(a.address(), byAge.get(0), "the founder is the oldest");
    Address second = byAge.get(1);
    for (ActorSystem s : all) {
      assertEquals(byAge, Cluster.get(s).state().members().stream().map(Member::address).toList(),
          "the member order on " + s.address());
      assertEquals(Optional.of(a.address()), Cluster.get(s).state().leader(), "the oldest leads, on " + s.address());
    }
    CountDownLatch removedRan = new CountDownLatch(1);
    List<MemberStatus> statusWhenRemovedRan = new java.util.concurrent.CopyOnWriteArrayList<>();
    Cluster.get(a).registerOnMemberRemoved(() -> {
      statusWhenRemovedRan.add(Cluster.get(a).selfMember().status());
      removedRan.countDown();
    });
    TestKit onB = subscribed(b);
    TestKit onC = subscribed(c);
    List<String> initial = List.of("MemberUp " + byAge.get(0), "MemberUp " + byAge.get(1), "MemberUp " + byAge.get(2),
        "LeaderChanged " + a.address());
    assertEquals(initial, events(onB, 4), "the initial state as events on " + b.address());
    assertEquals(initial, events(onC, 4), "the initial state as events on " + c.address());
    assertEquals(1, removedRan.getCount(), "registerOnMemberRemoved ran while the node is a member");

    Cluster.get(a).leave(a.address());

    List<String> onBAfter = events(onB, 4);
    assertEquals(List.of("MemberLeft " + a.address(), "LeaderChanged " + second, "MemberExited " + a.address(),
        "MemberRemoved " + a.address() + " EXITING"), onBAfter, "the leader hands over at once when it leaves");
    assertEquals(onBAfter, events(onC, 4), "the same events in the same order on " + c.address());
    for (ActorSystem s : List.of(b, c)) {
      assertEquals(Optional.of(second), Cluster.get(s).state().leader(), "the next oldest leads, on " + s.address());
    }
    assertTrue(removedRan.await(CHANGE.toMillis(), TimeUnit.MILLISECONDS), "registerOnMemberRemoved ran on the leaver");
    assertEquals(List.of(MemberStatus.REMOVED), statusWhenRemovedRan, "registerOnMemberRemoved ran once the leaver was removed");
    new TestKit(b).awaitResult(CHANGE, a.getWhenTerminated());
    onB.expectNoMessage(Duration.ofMillis(300));
  }
}
