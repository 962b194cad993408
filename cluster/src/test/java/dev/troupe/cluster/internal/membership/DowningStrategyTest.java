package dev.troupe.cluster.internal.membership;

import static dev.troupe.cluster.internal.membership.DowningDecision.DOWN_SELF_SIDE;
import static dev.troupe.cluster.internal.membership.DowningDecision.DOWN_UNREACHABLE;
import static dev.troupe.cluster.internal.membership.Fixtures.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.cluster.ClusterSettings;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The downing strategies as pure functions, on tables of partitions: for every way to split 3, 4
 * and 5 members into two sides (1|2, 2|2, 1|3, 2|3, 1|4), each side decides from its own point of
 * view, and the decisions must fit together.
 */
class DowningStrategyTest {

  /**
   * {@code n} UP members, oldest first; their ages are not the order of their addresses (the oldest
   * is node n, the lowest address node 1), so that keep-oldest and keep-majority's tie-breaker are
   * told apart.
   */
  static List<Member> cluster(int n) {
    List<Member> members = new ArrayList<>();
    for (int age = 0; age < n; age++) {
      members.add(new Member(node(n - age), MemberStatus.UP, Set.of(), age));
    }
    return members;
  }

  static Stream<Arguments> strategies() {
    return Stream.of(
        Arguments.of("keep-majority", new DowningStrategy.KeepMajority()),
        Arguments.of("keep-oldest, down-if-alone", new DowningStrategy.KeepOldest(true)),
        Arguments.of("keep-oldest", new DowningStrategy.KeepOldest(false)),
        Arguments.of("static-quorum", null),
        Arguments.of("down-all", new DowningStrategy.DownAll()),
        Arguments.of("off", new DowningStrategy.Off()));
  }

  /** Every subset of {@code members} as one side (the rest the other), with both sides non-empty. */
  static List<Set<UniqueAddress>> sides(List<Member> members) {
    List<Set<UniqueAddress>> out = new ArrayList<>();
    int n = members.size();
    for (int mask = 1; mask < (1 << n) - 1; mask++) {
      Set<UniqueAddress> side = new HashSet<>();
      for (int i = 0; i < n; i++) {
        if ((mask & (1 << i)) != 0) {
          side.add(members.get(i).uniqueAddress());
        }
      }
      out.add(side);
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("strategies")
  void everySplitOfThreeToFiveMembersLeavesTheSidesTheStrategyPromises(String name, DowningStrategy given) {
    int checked = 0;
    for (int n = 2; n <= 5; n++) {
      List<Member> members = cluster(n);
      DowningStrategy strategy = given != null ? given : new DowningStrategy.StaticQuorum(n / 2 + 1);
      for (Set<UniqueAddress> sideA : sides(members)) {
        Set<UniqueAddress> sideB = new HashSet<>();
        members.forEach(m -> sideB.add(m.uniqueAddress()));
        sideB.removeAll(sideA);
        DowningDecision a = strategy.decide(Partition.of(members, sideA));
        DowningDecision b = strategy.decide(Partition.of(members, sideB));
        int survivors = (a == DOWN_UNREACHABLE ? 1 : 0) + (b == DOWN_UNREACHABLE ? 1 : 0);
        String split = name + ", " + sideA.size() + "|" + sideB.size() + " " + sideA + " | " + sideB + ": " + a + ", " + b;
        switch (name) {
          case "down-all" -> assertEquals(0, survivors, split);
          case "off" -> {
            assertEquals(DowningDecision.NOTHING, a, split);
            assertEquals(DowningDecision.NOTHING, b, split);
          }
          case "static-quorum" -> {
            int quorum = n / 2 + 1;
            int expected = Math.max(sideA.size(), sideB.size()) >= quorum ? 1 : 0;
            assertEquals(expected, survivors, split);
          }
          default -> assertEquals(1, survivors, split);
        }
        checked++;
      }
    }
    assertEquals(2 + 6 + 14 + 30, checked);
  }

  /**
   * Sure deaths (members removed at once, without a decision) never let two sides stay: for every
   * way to put 2 to 6 members on side A, side B or among the dead, and every choice of which dead
   * members each side has already removed from its count (a side may learn of a death the other
   * never hears of), at most one side stays.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("strategies")
  void deadMembersRemovedFromOneSidesCountNeverLetBothSidesStay(String name, DowningStrategy given) {
    int checked = 0;
    for (int n = 2; n <= 6; n++) {
      List<Member> members = cluster(n);
      DowningStrategy strategy = given != null ? given : new DowningStrategy.StaticQuorum(n / 2 + 1);
      int assignments = (int) Math.pow(3, n);
      for (int code = 0; code < assignments; code++) {
        Set<UniqueAddress> sideA = new HashSet<>();
        Set<UniqueAddress> sideB = new HashSet<>();
        List<Member> dead = new ArrayList<>();
        for (int i = 0, c = code; i < n; i++, c /= 3) {
          Member m = members.get(i);
          switch (c % 3) {
            case 0 -> sideA.add(m.uniqueAddress());
            case 1 -> sideB.add(m.uniqueAddress());
            default -> dead.add(m);
          }
        }
        if (sideA.isEmpty() || sideB.isEmpty()) {
          continue;
        }
        for (int known = 0; known < 1 << (2 * dead.size()); known++) {
          List<Member> countedA = new ArrayList<>(members);
          List<Member> countedB = new ArrayList<>(members);
          for (int d = 0; d < dead.size(); d++) {
            if ((known & (1 << (2 * d))) != 0) {
              countedA.remove(dead.get(d));
            }
            if ((known & (1 << (2 * d + 1))) != 0) {
              countedB.remove(dead.get(d));
            }
          }
          boolean aStays = strategy.decide(Partition.of(countedA, sideA)) == DOWN_UNREACHABLE;
          boolean bStays = strategy.decide(Partition.of(countedB, sideB)) == DOWN_UNREACHABLE;
          assertTrue(!(aStays && bStays), name + ": both sides stay, " + sideA + " counting " + countedA.size()
              + " | " + sideB + " counting " + countedB.size() + ", dead " + dead);
          checked++;
        }
      }
    }
    assertEquals(22_386, checked, "6^n - 2*5^n + 4^n cases for n = 2..6");
  }

  @Test
  void keepMajorityKeepsTheBiggerSideAndOnATieTheSideWithTheLowestAddress() {
    List<Member> four = cluster(4); // oldest first: 4, 3, 2, 1
    DowningStrategy km = new DowningStrategy.KeepMajority();
    assertEquals(DOWN_UNREACHABLE, km.decide(Partition.of(four, Set.of(node(2), node(3), node(4)))));
    assertEquals(DOWN_SELF_SIDE, km.decide(Partition.of(four, Set.of(node(1)))));
    assertEquals(DOWN_UNREACHABLE, km.decide(Partition.of(four, Set.of(node(1), node(4)))), "node 1 is lowest");
    assertEquals(DOWN_SELF_SIDE, km.decide(Partition.of(four, Set.of(node(2), node(3)))));
  }

  @Test
  void keepOldestKeepsTheOldestsSideUnlessItIsAloneAndDownIfAloneIsOn() {
    List<Member> three = cluster(3); // oldest is node 3
    DowningStrategy alone = new DowningStrategy.KeepOldest(true);
    DowningStrategy stay = new DowningStrategy.KeepOldest(false);
    assertEquals(DOWN_SELF_SIDE, alone.decide(Partition.of(three, Set.of(node(3)))));
    assertEquals(DOWN_UNREACHABLE, alone.decide(Partition.of(three, Set.of(node(1), node(2)))));
    assertEquals(DOWN_UNREACHABLE, stay.decide(Partition.of(three, Set.of(node(3)))));
    assertEquals(DOWN_SELF_SIDE, stay.decide(Partition.of(three, Set.of(node(1), node(2)))));
    List<Member> two = cluster(2); // 1|1: the oldest stays even when alone
    assertEquals(DOWN_UNREACHABLE, alone.decide(Partition.of(two, Set.of(node(2)))));
    assertEquals(DOWN_SELF_SIDE, alone.decide(Partition.of(two, Set.of(node(1)))));
  }

  @Test
  void staticQuorumKeepsASideWithTheQuorumOnly() {
    List<Member> four = cluster(4);
    DowningStrategy q3 = new DowningStrategy.StaticQuorum(3);
    assertEquals(DOWN_UNREACHABLE, q3.decide(Partition.of(four, Set.of(node(1), node(2), node(3)))));
    assertEquals(DOWN_SELF_SIDE, q3.decide(Partition.of(four, Set.of(node(1), node(2)))));
    assertThrows(IllegalArgumentException.class, () -> new DowningStrategy.StaticQuorum(0));
  }

  @Test
  void theConfiguredStrategyIsTheOneBuilt() {
    assertEquals(new DowningStrategy.StaticQuorum(2), DowningStrategy.of(Fixtures.staticQuorum(2)));
    assertEquals(new DowningStrategy.KeepOldest(false), DowningStrategy.of(Fixtures.keepOldest(false)));
    assertEquals(new DowningStrategy.KeepMajority(),
        DowningStrategy.of(Fixtures.downing(ClusterSettings.Strategy.KEEP_MAJORITY)));
    assertEquals(new DowningStrategy.DownAll(), DowningStrategy.of(Fixtures.downing(ClusterSettings.Strategy.DOWN_ALL)));
    assertEquals(new DowningStrategy.Off(), DowningStrategy.of(Fixtures.downing(ClusterSettings.Strategy.OFF)));
  }

  @Test
  void aPartitionOnlyHoldsCountedMembersAndOrdersThemOldestFirst() {
    List<Member> three = new ArrayList<>(cluster(3));
    java.util.Collections.reverse(three);
    Partition p = Partition.of(three, Set.of(node(1)));
    assertEquals(node(3), p.oldest().uniqueAddress());
    assertEquals(node(1), p.lowestAddress());
    assertEquals(2, p.unreachableCount());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Partition.of(three, Set.of(node(9))))
        .getMessage().contains("not a counted member"));
  }
}
