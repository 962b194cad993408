package dev.troupe.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.Address;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The public value types: members, their order, events, the state snapshot. */
class ClusterApiTest {
  private static UniqueAddress ua(int port, long uid) {
    return new UniqueAddress(Address.remote("sys", "127.0.0.1", port), uid);
  }

  @Test
  void aMemberIsItsIncarnationWhateverItsStatus() {
    Member up = new Member(ua(2552, 1), MemberStatus.UP, Set.of("worker"), 3);
    Member leaving = up.withStatus(MemberStatus.LEAVING);
    assertEquals(up, leaving);
    assertEquals(up.hashCode(), leaving.hashCode());
    assertEquals(MemberStatus.LEAVING, leaving.status());
    assertSame(up, up.withStatus(MemberStatus.UP));
    assertNotEquals(up, new Member(ua(2552, 2), MemberStatus.UP, Set.of("worker"), 3), "another incarnation");
    assertEquals(Address.remote("sys", "127.0.0.1", 2552), up.address());
    assertTrue(up.hasRole("worker"));
    assertFalse(up.hasRole("frontend"));
    assertEquals("Member(troupe://sys@127.0.0.1:2552#1, UP, roles [worker])", up.toString());
  }

  @Test
  void membersAreOrderedOldestFirstNotByAddress() {
    Member old = new Member(ua(2559, 1), MemberStatus.UP, Set.of(), 0);
    Member young = new Member(ua(2551, 1), MemberStatus.JOINING, Set.of(), 5);
    assertTrue(old.isOlderThan(young));
    assertFalse(young.isOlderThan(old));
    assertFalse(old.isOlderThan(old));
    List<Member> list = new ArrayList<>(List.of(young, old));
    list.sort(Member.ageOrdering());
    assertEquals(List.of(old, young), list);
  }

  @Test
  void theStateSortsItsMembersOldestFirst() {
    Member a = new Member(ua(2553, 1), MemberStatus.UP, Set.of(), 1);
    Member b = new Member(ua(2551, 1), MemberStatus.UP, Set.of(), 2);
    Member c = new Member(ua(2552, 1), MemberStatus.UP, Set.of(), 0);
    CurrentClusterState s = new CurrentClusterState(List.of(a, b, c), Set.of(b), Optional.of(c.address()));
    assertEquals(List.of(c, a, b), s.members());
    assertEquals(Optional.of(b), s.member(b.address()));
    assertEquals(Optional.empty(), s.member(Address.remote("sys", "127.0.0.1", 1)));
    assertTrue(s instanceof ClusterEvent, "a subscriber receives it as a message");
  }

  @Test
  void theInitialStateModesAreTwoMarkers() {
    assertEquals(ClusterEvent.SubscriptionInitialStateMode.INITIAL_STATE_AS_EVENTS, ClusterEvent.initialStateAsEvents());
    assertEquals(ClusterEvent.SubscriptionInitialStateMode.INITIAL_STATE_AS_SNAPSHOT,
        ClusterEvent.initialStateAsSnapshot());
  }

  @Test
  void eventsAreValuesAndRefuseNull() {
    Member m = new Member(ua(2552, 1), MemberStatus.REMOVED, Set.of(), 0);
    assertEquals(new ClusterEvent.MemberRemoved(m, MemberStatus.DOWN), new ClusterEvent.MemberRemoved(m, MemberStatus.DOWN));
    assertTrue(new ClusterEvent.MemberUp(m) instanceof ClusterEvent.MemberEvent);
    assertTrue(new ClusterEvent.UnreachableMember(m) instanceof ClusterEvent.ReachabilityEvent);
    assertThrows(NullPointerException.class, () -> new ClusterEvent.MemberJoined(null));
    assertThrows(NullPointerException.class, () -> new ClusterEvent.MemberRemoved(m, null));
    assertThrows(NullPointerException.class, () -> new ClusterEvent.LeaderChanged(null));
    assertEquals(Optional.empty(), new ClusterEvent.LeaderChanged(Optional.empty()).leader());
  }
}
