package dev.troupe.cluster.internal.membership;

import static dev.troupe.cluster.internal.membership.Fixtures.node;
import static dev.troupe.cluster.internal.membership.Fixtures.render;
import static dev.troupe.cluster.internal.membership.Fixtures.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.ClusterSettings;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.MembershipView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Randomized runs of whole clusters of state machines (bounded: 400 seeds, at most 7 nodes, a few
 * dozen simulated seconds each; the run prints the seed of a failure). Each run forms a cluster by
 * joins in an order unrelated to addresses, maybe lets a member leave gracefully and one crash, then
 * splits it in two; each side's engine drops the other side in one to three steps, all within 3 s
 * (or, in a quarter of the runs, keeps its view and only suspects the other side);
 * every node ticks once a second at its own offset; finally the engine heals the partition. Checked:
 *
 * <ul>
 *   <li>nodes fed the same views emit the same events (every node of one side, from the split on),
 *       and nodes that joined at different times order the members the same;
 *   <li>never do both sides survive; exactly one does for keep-majority and keep-oldest, at most one
 *       for static-quorum (exactly one when a side has the quorum), none for down-all;
 *   <li>a survivor downs only members it first saw unreachable, and a healed view brings nothing
 *       removed back;
 *   <li>every member's statuses only move forward.
 * </ul>
 */
class MembershipRandomizedTest {
  private static final int RUNS = 400;

  @Test
  void nodesFedTheSameViewsAgreeAndTwoSidesNeverBothSurvive() {
    int[] survivorsSeen = new int[3];
    for (long seed = 0; seed < RUNS; seed++) {
      try {
        survivorsSeen[new Run(seed).play()]++;
      } catch (AssertionError e) {
        throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
      }
    }
    assertEquals(0, survivorsSeen[2], "two sides survived");
    assertTrue(survivorsSeen[1] > RUNS / 2, "most runs keep one side: " + survivorsSeen[1]);
    assertTrue(survivorsSeen[0] > 0, "down-all and static-quorum without quorum end every side");
  }

  /** One simulated cluster. */
  private static final class Run {
    final long seed;
    final Random r;
    final String strategy;
    final Map<UniqueAddress, SimNode> nodes = new LinkedHashMap<>();
    long now;
    long version;

    Run(long seed) {
      this.seed = seed;
      this.r = new Random(seed);
      this.strategy = List.of("keep-majority", "keep-oldest", "keep-oldest-alone", "static-quorum", "down-all")
          .get(r.nextInt(5));
    }

    /** @return how many sides survived the split */
    int play() {
      int n = 3 + r.nextInt(5);
      boolean leave = r.nextBoolean();
      boolean crash = r.nextInt(3) == 0 && !strategy.equals("down-all") && n - (leave ? 1 : 0) - 1 >= 2;
      int clusterSize = n - (leave ? 1 : 0) - (crash ? 1 : 0);
      int quorum = clusterSize / 2 + 1;
      ClusterSettings.Downing downing = switch (strategy) {
        case "keep-majority" -> Fixtures.downing(ClusterSettings.Strategy.KEEP_MAJORITY);
        case "keep-oldest" -> Fixtures.keepOldest(false);
        case "keep-oldest-alone" -> Fixtures.keepOldest(true);
        case "static-quorum" -> Fixtures.staticQuorum(quorum);
        default -> Fixtures.downing(ClusterSettings.Strategy.DOWN_ALL);
      };
      int minNr = 1 + r.nextInt(n);
      List<UniqueAddress> joinOrder = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        joinOrder.add(node(i));
      }
      Collections.shuffle(joinOrder, r);
      for (UniqueAddress u : joinOrder) {
        nodes.put(u, new SimNode(u, new MembershipState(u, minNr, downing), r.nextInt(1000)));
      }

      // Formation: one join at a time, every member gets each view.
      List<UniqueAddress> members = new ArrayList<>();
      for (UniqueAddress u : joinOrder) {
        members.add(u);
        deliverView(members, members);
        advance(seconds(0.2 + r.nextDouble() * 2));
      }
      if (leave) {
        UniqueAddress leaver = members.get(r.nextInt(members.size()));
        for (UniqueAddress u : members) {
          nodes.get(u).apply(s -> s.onLeaving(leaver, now));
        }
        advance(seconds(0.3));
        members.remove(leaver);
        nodes.get(leaver).apply(s -> s.onLeftGroup(now));
        assertTrue(nodes.get(leaver).state.isTerminated());
        deliverView(members, members);
        advance(seconds(1));
      }
      if (crash) {
        // Not the oldest: under keep-oldest a crashed oldest takes the others down (its promise).
        UniqueAddress crashed = members.get(1 + r.nextInt(members.size() - 1));
        members.remove(crashed);
        nodes.get(crashed).crashed = true;
        deliverView(members, members);
        advance(seconds(9));
        for (UniqueAddress u : members) {
          assertTrue(nodes.get(u).state.isRemoved(crashed), strategy + ": the crashed member is downed by " + u);
        }
      }
      assertEquals(clusterSize, members.size());
      String order = nodes.get(members.get(0)).state.members().toString();
      for (UniqueAddress u : members) {
        assertEquals(order, nodes.get(u).state.members().toString(), "every node orders the members the same");
        assertTrue(!nodes.get(u).state.isTerminated(), u + " is still up before the split");
      }

      // The split: a random non-empty proper subset against the rest.
      List<UniqueAddress> sideA = new ArrayList<>();
      List<UniqueAddress> sideB = new ArrayList<>();
      while (sideA.isEmpty() || sideB.isEmpty()) {
        sideA.clear();
        sideB.clear();
        for (UniqueAddress u : members) {
          (r.nextBoolean() ? sideA : sideB).add(u);
        }
      }
      for (SimNode s : nodes.values()) {
        s.mark = s.log.size();
      }
      List<Step> steps = new ArrayList<>();
      boolean suspicionsOnly = r.nextInt(4) == 0;
      steps.addAll(suspicionsOnly ? suspectedSplit(sideA, sideB) : stagedSplit(members, sideA, sideB));
      steps.addAll(suspicionsOnly ? suspectedSplit(sideB, sideA) : stagedSplit(members, sideB, sideA));
      steps.sort((x, y) -> Long.compare(x.at, y.at));
      long start = now;
      for (Step step : steps) {
        advance(start + step.at - now);
        for (UniqueAddress u : step.side) {
          nodes.get(u).apply(step.input);
        }
      }
      advance(seconds(15));

      boolean aUp = sideSurvives(sideA);
      boolean bUp = sideSurvives(sideB);
      int survivors = (aUp ? 1 : 0) + (bUp ? 1 : 0);
      String what = strategy + ", " + clusterSize + " members " + members + ", split " + sideA + " | " + sideB;
      switch (strategy) {
        case "down-all" -> assertEquals(0, survivors, what);
        case "static-quorum" -> assertEquals(
            Math.max(sideA.size(), sideB.size()) >= quorum ? 1 : 0, survivors, what);
        default -> assertEquals(1, survivors, what);
      }
      for (List<UniqueAddress> side : List.of(sideA, sideB)) {
        List<String> first = nodes.get(side.get(0)).sinceMark();
        for (UniqueAddress u : side) {
          assertEquals(first, nodes.get(u).sinceMark(), what + ": " + u + " and " + side.get(0) + " were fed the same views");
        }
      }

      // The engine heals the partition: nothing removed comes back, survivors hear nothing.
      List<UniqueAddress> healed = new ArrayList<>(members);
      for (UniqueAddress u : members) {
        int before = nodes.get(u).log.size();
        version++;
        final long v = version;
        nodes.get(u).apply(s -> s.onView(new MembershipView(v, Fixtures.view(0, true, healed).members(), true), now));
        assertEquals(before, nodes.get(u).log.size(), what + ": the healed view told " + u + " something");
      }
      advance(seconds(10));
      for (List<UniqueAddress> side : List.of(sideA, sideB)) {
        List<UniqueAddress> other = side == sideA ? sideB : sideA;
        for (UniqueAddress u : side) {
          MembershipState s = nodes.get(u).state;
          if (!s.isTerminated()) {
            assertEquals(side, s.members().stream().map(Member::uniqueAddress).toList(), what);
            assertEquals(Set.copyOf(other), s.removedStillInView(), what);
          }
        }
      }
      for (SimNode s : nodes.values()) {
        s.checkEventGrammar(what);
      }
      return survivors;
    }

    /** The views {@code side}'s engine installs as it drops {@code other}: one to three steps within 3 s. */
    List<Step> stagedSplit(List<UniqueAddress> members, List<UniqueAddress> side, List<UniqueAddress> other) {
      List<Step> steps = new ArrayList<>();
      List<UniqueAddress> dropOrder = new ArrayList<>(other);
      Collections.shuffle(dropOrder, r);
      if (r.nextBoolean()) { // the side's failure detection suspects someone first
        UniqueAddress suspect = dropOrder.get(0);
        steps.add(new Step(seconds(r.nextDouble()), side, s -> s.onSuspected(suspect, now)));
      }
      int stages = 1 + r.nextInt(Math.min(3, dropOrder.size()));
      List<UniqueAddress> view = new ArrayList<>(members);
      for (int i = 0; i < stages; i++) {
        int from = i * dropOrder.size() / stages;
        int to = (i + 1) * dropOrder.size() / stages;
        view.removeAll(dropOrder.subList(from, to));
        List<UniqueAddress> snapshot = List.copyOf(view);
        long at = seconds(1 + i + r.nextDouble());
        steps.add(new Step(at, side, s -> s.onView(Fixtures.view(++version, false, snapshot), now)));
      }
      return steps;
    }

    /** The engine's views stay as they were; {@code side}'s failure detection suspects {@code other}, within 3 s. */
    List<Step> suspectedSplit(List<UniqueAddress> side, List<UniqueAddress> other) {
      List<Step> steps = new ArrayList<>();
      for (UniqueAddress suspect : other) {
        steps.add(new Step(seconds(3 * r.nextDouble()), side, s -> s.onSuspected(suspect, now)));
      }
      return steps;
    }

    boolean sideSurvives(List<UniqueAddress> side) {
      long up = side.stream().filter(u -> !nodes.get(u).state.isTerminated()).count();
      assertTrue(up == 0 || up == side.size(), "part of side " + side + " survived (" + strategy + ")");
      return up > 0;
    }

    void deliverView(List<UniqueAddress> to, List<UniqueAddress> members) {
      version++;
      MembershipView v = Fixtures.view(version, false, List.copyOf(members));
      for (UniqueAddress u : to) {
        nodes.get(u).apply(s -> s.onView(v, now));
      }
    }

    /** Moves the clock on by {@code d}, ticking every node at its own one-second beat. */
    void advance(long d) {
      long end = now + Math.max(0, d);
      for (SimNode s : nodes.values()) {
        while (s.nextTick <= end) {
          long t = s.nextTick;
          if (!s.crashed) {
            s.log(s.state.onTick(t));
          }
          s.nextTick += seconds(1);
        }
      }
      now = end;
    }
  }

  private record Step(long at, List<UniqueAddress> side, Function<MembershipState, List<ClusterEvent>> input) {}

  /** One node: its state machine, its tick beat, and everything it emitted. */
  private static final class SimNode {
    final UniqueAddress self;
    final MembershipState state;
    final List<String> log = new ArrayList<>();
    final List<ClusterEvent> events = new ArrayList<>();
    long nextTick;
    int mark;
    boolean crashed;

    SimNode(UniqueAddress self, MembershipState state, int offsetMillis) {
      this.self = self;
      this.state = state;
      this.nextTick = seconds(offsetMillis / 1000.0);
    }

    void apply(Function<MembershipState, List<ClusterEvent>> input) {
      if (!crashed) {
        log(input.apply(state));
      }
    }

    void log(List<ClusterEvent> ev) {
      events.addAll(ev);
      ev.forEach(e -> log.add(render(e)));
    }

    List<String> sinceMark() {
      return log.subList(mark, log.size());
    }

    /** Statuses only move forward; a member this node downs without downing itself was unreachable first. */
    void checkEventGrammar(String what) {
      Map<UniqueAddress, Integer> rank = new LinkedHashMap<>();
      Set<UniqueAddress> unreachable = new HashSet<>();
      boolean selfSideDown = state.selfDownReason().isPresent();
      for (ClusterEvent e : events) {
        if (e instanceof ClusterEvent.UnreachableMember u) {
          unreachable.add(u.member().uniqueAddress());
        } else if (e instanceof ClusterEvent.ReachableMember u) {
          unreachable.remove(u.member().uniqueAddress());
        } else if (e instanceof ClusterEvent.MemberEvent m) {
          UniqueAddress ua = m.member().uniqueAddress();
          int next = m.member().status().ordinal();
          int prev = rank.getOrDefault(ua, -1);
          if (next <= prev || (next == 4 && prev == 3)) { // DOWN never follows EXITING
            fail(what + ": " + self + " saw " + render(e) + " after status rank " + prev + " in " + log);
          }
          if (e instanceof ClusterEvent.MemberDowned && !selfSideDown && !unreachable.contains(ua)) {
            fail(what + ": " + self + " downed " + ua + " that it never saw unreachable: " + log);
          }
          rank.put(ua, next);
        }
      }
    }
  }
}
