package dev.troupe.cluster.internal.membership;

import static dev.troupe.cluster.internal.membership.Fixtures.downing;
import static dev.troupe.cluster.internal.membership.Fixtures.incarnation;
import static dev.troupe.cluster.internal.membership.Fixtures.node;
import static dev.troupe.cluster.internal.membership.Fixtures.render;
import static dev.troupe.cluster.internal.membership.Fixtures.seconds;
import static dev.troupe.cluster.internal.membership.Fixtures.view;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.ClusterSettings.Strategy;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The membership state machine's rules, one scenario at a time, as tables of inputs and events. */
class MembershipStateTest {
  private static final UniqueAddress A = node(1);
  private static final UniqueAddress B = node(2);
  private static final UniqueAddress C = node(3);
  private static final UniqueAddress D = node(4);

  /** A state machine for {@code self} with min-nr-of-members 1 and keep-majority, and its clock. */
  private static final class Node {
    final MembershipState state;
    long now;

    Node(UniqueAddress self, int minNr, Strategy strategy) {
      state = new MembershipState(self, minNr, downing(strategy));
    }

    Node(UniqueAddress self) {
      this(self, 1, Strategy.KEEP_MAJORITY);
    }

    String view(long version, UniqueAddress... members) {
      return render(state.onView(Fixtures.view(version, members), now));
    }

    /** Ticks every second for {@code s} seconds; the events of all those ticks. */
    String tickFor(double s) {
      List<ClusterEvent> ev = new ArrayList<>();
      long end = now + seconds(s);
      while (now < end) {
        now += seconds(1);
        ev.addAll(state.onTick(now));
      }
      return render(ev);
    }

    String members() {
      return state.members().stream()
          .map(m -> Fixtures.n(m.uniqueAddress()) + ":" + m.status())
          .toList()
          .toString();
    }
  }

  @Test
  void theFirstMemberIsUpAndLeaderAtOnceAndLaterOnesJoinThenGoUp() {
    Node a = new Node(A);
    assertEquals("Joined(1) Up(1) Leader(1)", a.view(1, A));
    assertEquals("Joined(2) Up(2)", a.view(2, A, B));
    assertEquals("Joined(3) Up(3)", a.view(3, A, B, C));
    assertEquals("[1:UP, 2:UP, 3:UP]", a.members());
    assertEquals(Optional.of(A.address()), a.state.leader());
  }

  @Test
  void membersStayJoiningUntilMinNrOfMembersThenAllGoUpOldestFirst() {
    Node a = new Node(A, 3, Strategy.KEEP_MAJORITY);
    assertEquals("Joined(1)", a.view(1, A));
    assertEquals("Joined(2)", a.view(2, A, B));
    assertEquals("[1:JOINING, 2:JOINING]", a.members());
    assertEquals(Optional.empty(), a.state.leader());
    assertEquals("Joined(3) Up(1) Up(2) Up(3) Leader(1)", a.view(3, A, B, C));
  }

  @Test
  void aNodeThatJoinsLaterOrdersTheMembersAsTheOldOnesDo() {
    Node a = new Node(A);
    a.view(1, A);
    a.view(2, A, C);
    a.view(3, A, C, B);
    Node b = new Node(B);
    assertEquals("Joined(1) Joined(3) Joined(2) Up(1) Up(3) Up(2) Leader(1)", b.view(3, A, C, B));
    assertEquals(a.members(), b.members());
    assertEquals("[1:UP, 3:UP, 2:UP]", b.members());
    Member m1 = b.state.members().get(0);
    Member m3 = b.state.members().get(1);
    assertTrue(m1.isOlderThan(m3));
    assertFalse(m3.isOlderThan(m1));
  }

  @Test
  void aGracefulLeaveIsLeftThenExitedThenRemovedAsExiting() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    assertEquals("Left(2)", render(a.state.onLeaving(B, a.now)));
    assertEquals("[1:UP, 2:LEAVING, 3:UP]", a.members());
    assertEquals("Exited(2) Removed(2,EXITING)", a.view(2, A, C));
    assertEquals("[1:UP, 3:UP]", a.members());
    assertEquals("", a.tickFor(20), "nothing is left to decide");
  }

  @Test
  void theLeaderLeavingHandsOverAtOnce() {
    Node b = new Node(B);
    b.view(1, A, B, C);
    assertEquals("Left(1) Leader(2)", render(b.state.onLeaving(A, b.now)));
    assertEquals("Exited(1) Removed(1,EXITING)", b.view(2, B, C));
  }

  @Test
  void aMemberGoneWithoutLeavingIsUnreachableThenAfterStableAfterDownedAndRemoved() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    a.tickFor(3);
    assertEquals("Unreachable(2)", a.view(2, A, C), "however sure the engine is, the member is only unreachable");
    assertEquals("[1:UP, 2:UP, 3:UP]", a.members());
    assertEquals(Set.of(B), unreachable(a.state.state()));
    assertEquals("", a.tickFor(6), "no decision before stable-after");
    assertEquals("Downed(2) Removed(2,DOWN)", a.tickFor(1));
    assertEquals("[1:UP, 3:UP]", a.members());
    assertEquals(Set.of(), unreachable(a.state.state()));
    assertTrue(a.state.isRemoved(B));
  }

  @Test
  void aMemberConfirmedDeadIsUnreachableDownedAndRemovedAtOnce() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    a.tickFor(3);
    assertEquals("Unreachable(2) Downed(2) Removed(2,DOWN)", render(a.state.onConfirmedDead(B, a.now)),
        "no wait for stable-after: a closed socket is not silence");
    assertEquals("[1:UP, 3:UP]", a.members());
    assertTrue(a.state.isRemoved(B));
    assertEquals("", a.view(2, A, C), "the view that drops it changes nothing more");
    assertEquals("", render(a.state.onConfirmedDead(B, a.now)), "told once");
    assertEquals("", a.tickFor(20));
    assertFalse(a.state.isTerminated());
  }

  @Test
  void aMemberConfirmedDeadAfterTheViewDroppedItIsDownedAtOnce() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    assertEquals("Unreachable(2)", a.view(2, A, C));
    a.tickFor(1);
    assertEquals("Downed(2) Removed(2,DOWN)", render(a.state.onConfirmedDead(B, a.now)));
    assertEquals("[1:UP, 3:UP]", a.members());
    assertEquals(Set.of(), unreachable(a.state.state()));
  }

  @Test
  void aDeadMemberRemovedAtOnceLetsNobodyWaitingBePromoted() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    assertEquals("Unreachable(3) Joined(4)", a.view(2, A, B, D));
    assertEquals("Downed(3) Removed(3,DOWN) Up(4)", render(a.state.onConfirmedDead(C, a.now)));
  }

  @Test
  void confirmedDeathIsIgnoredForALeavingMemberThisNodeAStrangerAndARemovedOne() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    a.state.onLeaving(B, a.now);
    assertEquals("", render(a.state.onConfirmedDead(B, a.now)), "a leaving member exits with the view");
    assertEquals("Exited(2) Removed(2,EXITING)", a.view(2, A, C));
    assertEquals("", render(a.state.onConfirmedDead(A, a.now)), "never this node");
    assertEquals("", render(a.state.onConfirmedDead(D, a.now)), "nor a stranger");
    assertEquals("", render(a.state.onConfirmedDead(B, a.now)), "nor a removed incarnation");
    assertEquals("[1:UP, 3:UP]", a.members());
  }

  @Test
  void withDowningOffAConfirmedDeathIsOnlyASuspicion() {
    Node a = new Node(A, 1, Strategy.OFF);
    a.view(1, A, B, C);
    assertEquals("Unreachable(2)", render(a.state.onConfirmedDead(B, a.now)));
    assertEquals("", a.tickFor(30));
    assertEquals("[1:UP, 2:UP, 3:UP]", a.members());
    assertEquals("Downed(2) Removed(2,DOWN)", render(a.state.onDown(B, a.now)));
  }

  @Test
  void silenceStillWaitsForStableAfterBesideADeathRemovedAtOnce() {
    Node a = new Node(A);
    a.view(1, A, B, C, D);
    assertEquals("Unreachable(3)", render(a.state.onSuspected(C, a.now)), "C is silent (frozen, cut off)");
    a.tickFor(2);
    assertEquals("Unreachable(4) Downed(4) Removed(4,DOWN)", render(a.state.onConfirmedDead(D, a.now)));
    assertEquals("", a.tickFor(6), "the silent member waits for stable-after from the last change");
    assertEquals("Downed(3) Removed(3,DOWN)", a.tickFor(1));
  }

  @Test
  void aDeathLearnedOnOneSideOfAPartitionStillLeavesExactlyOneSide() {
    UniqueAddress e = node(5);
    // A and B are cut off from C, D and E; A also learns that E died. Two of the four left is a
    // tie, won by the lowest address (A): the other side, C and D, counts E as cut off (2 of 5)
    // and goes. Without the death both sides would count 5: A's side (2) goes, C's side (3) stays.
    Node a = new Node(A);
    a.view(1, A, B, C, D, e);
    assertEquals("Unreachable(3) Unreachable(4) Unreachable(5)", a.view(2, A, B));
    assertEquals("Downed(5) Removed(5,DOWN)", render(a.state.onConfirmedDead(e, a.now)));
    assertEquals("Downed(3) Removed(3,DOWN) Downed(4) Removed(4,DOWN)", a.tickFor(7));
    Node c = new Node(C);
    c.view(1, A, B, C, D, e);
    assertEquals("Unreachable(1) Unreachable(2) Unreachable(5) Leader(3)", c.view(2, C, D));
    assertEquals("Downed(3) Removed(3,DOWN) Downed(4) Removed(4,DOWN)", c.tickFor(7), "the other side goes");
  }

  @Test
  void aDownFromAnotherNodeOfAMemberStillReachableHereIsUnreachableFirst() {
    Node b = new Node(B);
    b.view(1, A, B, C);
    // A saw C die and passed its down on before B's engine dropped C
    assertEquals("Unreachable(3) Downed(3) Removed(3,DOWN)", render(b.state.onDownedElsewhere(C, b.now)));
    assertEquals("", b.view(2, A, B));
    Node a = new Node(A);
    a.view(1, A, B, C);
    a.view(2, A, B);
    assertEquals("Downed(3) Removed(3,DOWN)", render(a.state.onDownedElsewhere(C, a.now)), "already unreachable here");
    assertEquals("Downed(2) Removed(2,DOWN)", render(a.state.onDown(B, a.now)), "by hand here: no unreachable");
    assertEquals("", render(a.state.onDownedElsewhere(D, a.now)), "a stranger is only remembered");
    assertEquals("", a.view(3, A, D));
    Node c = new Node(C);
    c.view(1, A, B, C);
    assertEquals("Downed(3) Removed(3,DOWN)", render(c.state.onDownedElsewhere(C, c.now)), "this node: it goes");
    assertTrue(c.state.isTerminated());
  }

  @Test
  void aLeaveAnnouncedAfterTheViewDroppedTheMemberIsStillGraceful() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    assertEquals("Unreachable(2)", a.view(2, A, C));
    assertEquals("Left(2) Exited(2) Removed(2,EXITING)", render(a.state.onLeaving(B, a.now)));
    assertEquals("", a.tickFor(20));
  }

  @Test
  void aRemovedIncarnationNeverComesBackEvenInAHealedView() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    a.view(2, A, C);
    a.tickFor(8);
    assertEquals("[1:UP, 3:UP]", a.members());
    assertEquals("", render(a.state.onView(view(3, true, List.of(A, B, C)), a.now)));
    assertEquals("[1:UP, 3:UP]", a.members());
    assertEquals(Set.of(B), a.state.removedStillInView());
    assertEquals("", render(a.state.onLeaving(B, a.now)));
    assertEquals("", render(a.state.onSuspected(B, a.now)));
    assertEquals("", render(a.state.onDown(B, a.now)));
    assertEquals("", a.view(4, A, C));
    assertEquals(Set.of(), a.state.removedStillInView());
  }

  @Test
  void aNewIncarnationAtAMembersAddressRemovesTheOldOneAtOnce() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    UniqueAddress b2 = incarnation(2, 77);
    assertEquals("Unreachable(2) Downed(2) Removed(2,DOWN) Joined(2#77) Up(2#77)", a.view(2, A, C, b2));
    assertEquals("[1:UP, 3:UP, 2#77:UP]", a.members());
  }

  @Test
  void aSuspectedMemberIsUnreachableHereButKeepsItsStatusAndLeadership() {
    Node b = new Node(B);
    b.view(1, A, B, C);
    assertEquals("Unreachable(1)", render(b.state.onSuspected(A, b.now)));
    assertEquals("", render(b.state.onSuspected(A, b.now)), "told once");
    assertEquals(Optional.of(A.address()), b.state.leader(), "suspicions are one node's opinion");
    assertEquals("Reachable(1)", render(b.state.onUnsuspected(A, b.now)));
    assertEquals("", render(b.state.onSuspected(B, b.now)), "a node never suspects itself");
    assertEquals("", render(b.state.onSuspected(D, b.now)), "nor a stranger");
  }

  @Test
  void aMemberBackInTheViewBeforeStableAfterIsReachableAndNeverDowned() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    assertEquals("Unreachable(2)", a.view(2, A, C));
    a.tickFor(5);
    assertEquals("Reachable(2)", render(a.state.onView(view(3, true, List.of(A, B, C)), a.now)));
    assertEquals("", a.tickFor(20));
    assertEquals("[1:UP, 2:UP, 3:UP]", a.members());
  }

  @Test
  void aSuspicionWhileTheViewDropsTheMemberIsForgottenWhenItComesBack() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    assertEquals("Unreachable(2)", render(a.state.onSuspected(B, a.now)));
    assertEquals("", a.view(2, A, C));
    assertEquals("Reachable(2)", a.view(3, A, C, B));
  }

  @Test
  void nobodyIsPromotedWhileAMemberIsMissingFromTheView() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    assertEquals("Unreachable(3) Joined(4)", a.view(2, A, B, D));
    assertEquals("[1:UP, 2:UP, 3:UP, 4:JOINING]", a.members());
    assertEquals("Downed(3) Removed(3,DOWN) Up(4)", a.tickFor(8));
  }

  @Test
  void aNodeJoiningTheMinoritySideDuringAPartitionIsNotCountedAndGoesWithIt() {
    UniqueAddress e = node(5);
    UniqueAddress n = node(0); // the lowest address of all: counted, it would win keep-majority's tie
    Node a = new Node(A);
    a.view(1, A, B, C, D, e);
    assertEquals("Unreachable(3) Unreachable(4) Unreachable(5)", a.view(2, A, B));
    assertEquals("Joined(0)", a.view(3, A, B, n));
    assertEquals("[1:UP, 2:UP, 3:UP, 4:UP, 5:UP, 0:JOINING]", a.members());
    assertEquals("Downed(1) Removed(1,DOWN) Downed(2) Removed(2,DOWN) Downed(0) Removed(0,DOWN)", a.tickFor(8));
  }

  @Test
  void theMinoritySideDownsItselfAfterStableAfter() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    assertEquals("Unreachable(2) Unreachable(3)", a.view(2, A));
    assertEquals("", a.tickFor(6));
    assertFalse(a.state.isTerminated());
    assertEquals("Downed(1) Removed(1,DOWN)", a.tickFor(1));
    assertTrue(a.state.isTerminated());
    assertTrue(a.state.selfDownReason().orElseThrow().contains("keep-majority"), a.state.selfDownReason().toString());
    assertEquals("", a.view(3, A, B, C), "a terminated node ignores everything");
    assertEquals("", a.tickFor(10));
  }

  @Test
  void anyChangeRestartsTheStableAfterClock() {
    Node a = new Node(A);
    a.view(1, A, B, C, D);
    assertEquals("Unreachable(4)", a.view(2, A, B, C));
    assertEquals("", a.tickFor(5));
    assertEquals("Unreachable(3)", render(a.state.onSuspected(C, a.now)));
    assertEquals("", a.tickFor(6), "the suspicion made the situation new");
    assertEquals("Reachable(3)", render(a.state.onUnsuspected(C, a.now)));
    assertEquals("", a.tickFor(6), "and its end too");
    assertEquals("Downed(4) Removed(4,DOWN)", a.tickFor(1));
  }

  @Test
  void aVersionNotAboveTheLastIsIgnored() {
    Node a = new Node(A);
    a.view(5, A, B);
    assertEquals("", a.view(5, A));
    assertEquals("", a.view(4, A));
    assertEquals("[1:UP, 2:UP]", a.members());
  }

  @Test
  void aViewWithoutThisNodeDownsIt() {
    Node a = new Node(A);
    assertEquals("", a.view(1, B, C), "not joined yet: ignored");
    a.view(2, A, B, C);
    assertEquals("Downed(1) Removed(1,DOWN)", a.view(3, B, C));
    assertTrue(a.state.isTerminated());
    assertTrue(a.state.selfDownReason().orElseThrow().contains("no longer holds"));
  }

  @Test
  void aPauseLongerThanStableAfterDownsThisNode() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    a.tickFor(3);
    a.now += seconds(6.5);
    assertEquals("", render(a.state.onTick(a.now)), "6.5 s is within stable-after");
    a.now += seconds(7.5);
    assertEquals("Downed(1) Removed(1,DOWN)", render(a.state.onTick(a.now)));
    assertTrue(a.state.selfDownReason().orElseThrow().contains("paused"));
  }

  @Test
  void aPauseBeforeTheFirstTickDownsThisNodeToo() {
    // the wiring's first tick comes a tick interval after it starts; a node whose join is that
    // quick can be Up everywhere and frozen before any tick: the pause still counts
    Node c = new Node(C);
    assertEquals("Joined(1) Joined(2) Joined(3) Up(1) Up(2) Up(3) Leader(1)", c.view(3, A, B, C));
    c.now += seconds(9); // frozen; the others remove it meanwhile
    assertEquals("Downed(3) Removed(3,DOWN)", render(c.state.onTick(c.now)));
    assertTrue(c.state.selfDownReason().orElseThrow().contains("paused"));
  }

  @Test
  void withDowningOffNothingIsDownedAutomatically() {
    Node a = new Node(A, 1, Strategy.OFF);
    a.view(1, A, B, C);
    assertEquals("Unreachable(2) Unreachable(3)", a.view(2, A));
    a.now += seconds(60); // a pause too
    assertEquals("", render(a.state.onTick(a.now)));
    assertEquals("", a.tickFor(30));
    assertFalse(a.state.isTerminated());
    assertEquals("Downed(2) Removed(2,DOWN)", render(a.state.onDown(B, a.now)));
  }

  @Test
  void downingByHandRemovesAReachableMemberAndDowningSelfTerminates() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    assertEquals("Downed(2) Removed(2,DOWN)", render(a.state.onDown(B, a.now)));
    assertEquals("", a.view(2, A, B, C), "still in the engine's view, but removed");
    assertEquals(Set.of(B), a.state.removedStillInView());
    assertEquals("Downed(1) Removed(1,DOWN)", render(a.state.onDown(A, a.now)));
    assertTrue(a.state.isTerminated());
  }

  @Test
  void anIncarnationDownedBeforeThisNodeSawItNeverComesIn() {
    Node a = new Node(A);
    a.view(1, A, B);
    assertEquals("", render(a.state.onDown(C, a.now)));
    assertEquals("", a.view(2, A, B, C));
    assertEquals("[1:UP, 2:UP]", a.members());
  }

  @Test
  void thisNodeLeavingExitsWhenItsEngineHasLeft() {
    Node b = new Node(B);
    b.view(1, A, B, C);
    assertEquals("Left(2)", render(b.state.onLeaving(B, b.now)));
    assertFalse(b.state.isTerminated());
    assertEquals("Exited(2) Removed(2,EXITING)", render(b.state.onLeftGroup(b.now)));
    assertTrue(b.state.isTerminated());
    assertEquals(Optional.empty(), b.state.selfMember());
    assertEquals(Optional.empty(), b.state.selfDownReason());
  }

  @Test
  void aLeavingMemberDroppedWhileUnreachableStillExits() {
    Node a = new Node(A);
    a.view(1, A, B, C);
    a.state.onLeaving(C, a.now);
    assertEquals("Unreachable(3)", render(a.state.onSuspected(C, a.now)));
    assertEquals("Exited(3) Removed(3,EXITING)", a.view(2, A, B));
  }

  @Test
  void theStateListsMembersOldestFirstWithUnreachableAndLeader() {
    Node a = new Node(A);
    a.view(1, A, C);
    a.view(2, A, C, B);
    a.state.onSuspected(C, a.now);
    CurrentClusterState s = a.state.state();
    assertEquals(List.of(A, C, B), s.members().stream().map(Member::uniqueAddress).toList());
    assertEquals(Set.of(C), unreachable(s));
    assertEquals(Optional.of(A.address()), s.leader());
    assertEquals(MemberStatus.UP, s.member(B.address()).orElseThrow().status());
    assertEquals(
        "Up(1) Up(3) Up(2) Unreachable(3) Leader(1)", render(InitialState.asEvents(s)));
  }

  @Test
  void initialStateAsEventsTellsEachStatus() {
    Node a = new Node(A, 3, Strategy.KEEP_MAJORITY);
    a.view(1, A, B);
    assertEquals("Joined(1) Joined(2)", render(InitialState.asEvents(a.state.state())));
    a.view(2, A, B, C);
    a.state.onLeaving(B, a.now);
    assertEquals("Up(1) Left(2) Up(3) Leader(1)", render(InitialState.asEvents(a.state.state())));
  }

  @Test
  void rolesComeFromTheView() {
    Node a = new Node(A);
    a.view(1, A, B);
    assertTrue(a.state.members().get(0).hasRole("r1"));
    assertTrue(a.state.members().get(1).hasRole("r0"));
    assertFalse(a.state.members().get(1).hasRole("r1"));
  }

  @Test
  void theTombstonesAreBounded() {
    Node a = new Node(A);
    a.view(1, A);
    for (int i = 0; i < MembershipState.MAX_TOMBSTONES + 10; i++) {
      a.state.onDown(incarnation(9, 5000 + i), a.now);
    }
    assertFalse(a.state.isRemoved(incarnation(9, 5000)), "the oldest is forgotten");
    assertTrue(a.state.isRemoved(incarnation(9, 5000 + MembershipState.MAX_TOMBSTONES + 9)));
  }

  private static Set<UniqueAddress> unreachable(CurrentClusterState s) {
    Set<UniqueAddress> out = new java.util.HashSet<>();
    s.unreachable().forEach(m -> out.add(m.uniqueAddress()));
    return out;
  }
}
