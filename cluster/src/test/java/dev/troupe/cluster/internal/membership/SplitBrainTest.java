package dev.troupe.cluster.internal.membership;

import static dev.troupe.cluster.internal.membership.Fixtures.node;
import static dev.troupe.cluster.internal.membership.Fixtures.render;
import static dev.troupe.cluster.internal.membership.Fixtures.seconds;
import static dev.troupe.cluster.internal.membership.Fixtures.view;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.cluster.ClusterSettings;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.UniqueAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Partitions through whole state machines: a formed cluster of 3, 4 or 5 nodes splits 1|2, 2|2,
 * 2|3 or 1|4 in every possible way (which nodes go to which side), each side's engine reports the
 * view of its side, and each node decides on its own. Exactly one side survives, all of it, for the
 * strategies that promise it; the other side has shut itself down (its nodes are terminated, having
 * removed themselves as DOWN); nobody survives down-all; off downs nobody.
 */
class SplitBrainTest {

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (String strategy : List.of("keep-majority", "keep-oldest", "keep-oldest-alone", "static-quorum", "down-all",
        "off")) {
      for (int[] split : new int[][] {{1, 2}, {2, 3}, {2, 2}, {1, 4}}) {
        out.add(Arguments.of(strategy, split[0], split[1]));
      }
    }
    return out.stream();
  }

  static ClusterSettings.Downing downing(String strategy, int n) {
    return switch (strategy) {
      case "keep-majority" -> Fixtures.downing(ClusterSettings.Strategy.KEEP_MAJORITY);
      case "keep-oldest" -> Fixtures.keepOldest(false);
      case "keep-oldest-alone" -> Fixtures.keepOldest(true);
      case "static-quorum" -> Fixtures.staticQuorum(n / 2 + 1);
      case "down-all" -> Fixtures.downing(ClusterSettings.Strategy.DOWN_ALL);
      default -> Fixtures.downing(ClusterSettings.Strategy.OFF);
    };
  }

  @ParameterizedTest(name = "{0}, {1}|{2}")
  @MethodSource("cases")
  void exactlyTheSidesTheStrategyPromisesSurvive(String strategy, int a, int b) {
    int n = a + b;
    // Admission order is not address order: the oldest is the highest address.
    List<UniqueAddress> all = new ArrayList<>();
    for (int i = n; i >= 1; i--) {
      all.add(node(i));
    }
    for (int mask = 0; mask < (1 << n); mask++) {
      if (Integer.bitCount(mask) != a) {
        continue;
      }
      List<UniqueAddress> sideA = new ArrayList<>();
      List<UniqueAddress> sideB = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ((mask & (1 << i)) != 0 ? sideA : sideB).add(all.get(i));
      }
      run(strategy, all, sideA, sideB);
    }
  }

  private static void run(String strategy, List<UniqueAddress> all, List<UniqueAddress> sideA,
      List<UniqueAddress> sideB) {
    String split = strategy + " " + sideA + " | " + sideB;
    Map<UniqueAddress, MembershipState> nodes = new HashMap<>();
    Map<UniqueAddress, StringBuilder> events = new HashMap<>();
    for (UniqueAddress u : all) {
      MembershipState s = new MembershipState(u, 1, downing(strategy, all.size()));
      s.onView(view(1, all.toArray(UniqueAddress[]::new)), 0);
      nodes.put(u, s);
      events.put(u, new StringBuilder());
    }
    // The split: each side's engine installs the view of its side (versions differ per side).
    for (UniqueAddress u : sideA) {
      events.get(u).append(render(nodes.get(u).onView(view(2, sideA.toArray(UniqueAddress[]::new)), seconds(1))));
    }
    for (UniqueAddress u : sideB) {
      events.get(u).append(render(nodes.get(u).onView(view(3, sideB.toArray(UniqueAddress[]::new)), seconds(1.3))));
    }
    for (int t = 2; t <= 12; t++) {
      for (UniqueAddress u : all) {
        events.get(u).append(' ').append(render(nodes.get(u).onTick(seconds(t))));
      }
    }
    boolean aSurvives = survives(nodes, sideA, split);
    boolean bSurvives = survives(nodes, sideB, split);
    int survivors = (aSurvives ? 1 : 0) + (bSurvives ? 1 : 0);
    int n = all.size();
    switch (strategy) {
      case "down-all" -> assertEquals(0, survivors, split);
      case "off" -> assertEquals(2, survivors, split);
      case "static-quorum" -> assertEquals(
          Math.max(sideA.size(), sideB.size()) >= n / 2 + 1 ? 1 : 0, survivors, split);
      default -> assertEquals(1, survivors, split);
    }
    for (List<UniqueAddress> side : List.of(sideA, sideB)) {
      String first = events.get(side.get(0)).toString().trim();
      for (UniqueAddress u : side) {
        assertEquals(first, events.get(u).toString().trim(), split + ": every node of a side hears the same events");
        MembershipState s = nodes.get(u);
        if (!s.isTerminated() && !strategy.equals("off")) {
          assertEquals(side, s.members().stream().map(Member::uniqueAddress).toList(),
              split + ": a survivor's members are its side, oldest first");
        }
        if (s.isTerminated()) {
          assertTrue(first.contains("Removed(" + Fixtures.n(u) + ",DOWN)"), split + ": " + first);
        }
      }
    }
  }

  /** A side survives when all of its nodes do; a side is never half up. */
  private static boolean survives(Map<UniqueAddress, MembershipState> nodes, List<UniqueAddress> side, String split) {
    long up = side.stream().filter(u -> !nodes.get(u).isTerminated()).count();
    assertTrue(up == 0 || up == side.size(), split + ": part of a side survived");
    if (up > 0) {
      assertFalse(nodes.get(side.get(0)).isTerminated());
    }
    return up > 0;
  }
}
