package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.internal.core.Partitions.Node;
import dev.troupe.cluster.internal.jgroups.EngineFaults;
import dev.troupe.testkit.TestKit;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * The partition soak: many runs of a random network partition of a five-node cluster (JGroups
 * engine, remoting, 127.0.0.1, ephemeral ports, all in this JVM), each cut both ways as {@link
 * Partitions} does, then healed; it counts the runs where both sides stayed up (a split brain).
 *
 * <p>Each run starts a fresh cluster of five systems joined through their seeds, all Up, and picks
 * one of three splits with equal chance, the sides drawn at random from the members:
 *
 * <ul>
 *   <li>{@code 1|4}: one node against four;
 *   <li>{@code 2|3}: two against three;
 *   <li>{@code 2|2}: one node first leaves gracefully ({@code terminate()}) and is removed
 *       everywhere, then the four left split two against two (the tie keep-majority breaks by the
 *       lowest address).
 * </ul>
 *
 * Then it cuts, and waits (at most 90 s) until the run is decided: one side's systems have all
 * terminated and every system of the other side holds exactly its side as members, all Up. The
 * time to decision is from the cut until then. It checks that the side that stayed is the one
 * keep-majority keeps, heals (every cut lifted, a MERGE3 round), waits 3 s, and checks that the
 * side is still up, still exactly its members, and that no system of it terminated. A run where
 * both sides still run at the deadline is a split brain; one where neither does, a lost cluster.
 *
 * <p>Not a test: {@code scripts/cluster-partition-soak.sh} runs it with the test class path:
 * {@code PartitionSoak [runs] [seed] [default|fast]}. {@code default}: reference.conf's failure
 * detector and downing (heartbeat 1 s, pause 5 s, stable-after 7 s); {@code fast}: the partition
 * test's (300 ms, 2.5 s, 3 s). {@code -Dtroupe.soak.config=<HOCON>} adds settings to every node
 * (e.g. {@code troupe.remote.advanced.inbound-lanes = 4}). Prints one line per run and a summary; exit status 0 only when no
 * run was a split brain, lost the cluster, or kept the wrong side.
 */
public final class PartitionSoak {
  private static final int NODES = 5;
  private static final Duration FORM = Duration.ofSeconds(60);
  private static final Duration DECIDE = Duration.ofSeconds(90);
  private static final Duration SETTLED = Duration.ofSeconds(3);
  private static final PrintStream OUT = System.out;
  /** The nodes' own settings, last so that they win: HOCON lines from {@code -Dtroupe.soak.config} (the script's -c). */
  private static final String EXTRA_CONFIG = "\n" + System.getProperty("troupe.soak.config", "");

  private PartitionSoak() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 50;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : System.currentTimeMillis();
    boolean fast = args.length > 2 && args[2].equals("fast");
    String timings = fast
        ? "troupe.cluster.failure-detector.heartbeat-interval = 300ms\n"
            + "troupe.cluster.failure-detector.acceptable-heartbeat-pause = 2500ms\n"
            + "troupe.cluster.downing.stable-after = 3s\n"
        : "troupe.cluster.failure-detector.heartbeat-interval = 1s\n"
            + "troupe.cluster.failure-detector.acceptable-heartbeat-pause = 5s\n"
            + "troupe.cluster.downing.stable-after = 7s\n";
    Random random = new Random(seed);
    say("soak: %d runs, 5 nodes, seed %d, %s timings (%s)", runs, seed, fast ? "fast" : "default",
        timings.trim().replace("troupe.cluster.", "").replace("\n", ", "));
    say("soak: %-4s %-5s %-40s %-6s %12s  %s", "run", "split", "sides (ports; * = stayed)", "stayed", "decision ms", "verdict");
    int splitBrains = 0;
    int lost = 0;
    int wrongSide = 0;
    int unhealed = 0;
    int other = 0; // a cluster that never formed, a leave that failed, an error: no verdict on the split
    List<Long> decisions = new ArrayList<>();
    for (int run = 1; run <= runs; run++) {
      Result r = run(run, random, timings);
      say("soak: %-4d %-5s %-40s %-6s %12s  %s", run, r.split, r.sides, r.stayed,
          r.decisionMillis < 0 ? "-" : Long.toString(r.decisionMillis), r.verdict);
      switch (r.verdict) {
        case "ok" -> decisions.add(r.decisionMillis);
        case "SPLIT BRAIN" -> splitBrains++;
        case "LOST" -> lost++;
        case "WRONG SIDE" -> wrongSide++;
        case "CHANGED AFTER HEAL", "UNDECIDED" -> unhealed++;
        default -> other++;
      }
    }
    Collections.sort(decisions);
    say("soak: summary: %d runs, %d split brains (both sides up), %d lost (no side up), %d wrong side kept,"
        + " %d undecided or changed after the heal, %d not run to a verdict (formation or leave failed, an error)",
        runs, splitBrains, lost, wrongSide, unhealed, other);
    if (!decisions.isEmpty()) {
      say("soak: time to decision (ms), %d decided runs: min %d, median %d, p90 %d, max %d", decisions.size(),
          decisions.get(0), decisions.get(decisions.size() / 2),
          decisions.get(Math.min(decisions.size() - 1, (int) Math.ceil(decisions.size() * 0.9) - 1)),
          decisions.get(decisions.size() - 1));
    }
    System.exit(splitBrains + lost + wrongSide + unhealed + other == 0 ? 0 : 1);
  }

  private record Result(String split, String sides, String stayed, long decisionMillis, String verdict) {}

  private static Result run(int run, Random random, String timings) {
    String name = "soak" + run;
    List<ActorSystem> systems = new ArrayList<>();
    try {
      for (int i = 0; i < NODES; i++) {
        systems.add(ActorSystem.create(name, ClusterNodes.config("jgroups", Partitions.CONFIG + timings + EXTRA_CONFIG)));
      }
      List<Address> seeds = systems.stream().map(ActorSystem::address).toList();
      for (ActorSystem s : systems) {
        Cluster.get(s).joinSeedNodes(seeds);
      }
      if (!await(FORM, () -> systems.stream().allMatch(s -> upMembers(s).size() == NODES))) {
        return new Result("-", "-", "-", -1, "FORMATION FAILED");
      }
      List<ActorSystem> live = new ArrayList<>(systems);
      Collections.shuffle(live, random);
      int kind = random.nextInt(3);
      String split;
      int sizeA;
      if (kind == 0) {
        split = "1|4";
        sizeA = 1;
      } else if (kind == 1) {
        split = "2|3";
        sizeA = 2;
      } else {
        split = "2|2";
        sizeA = 2;
        ActorSystem leaver = live.remove(live.size() - 1);
        leaver.terminate();
        boolean gone = await(FORM, () -> leaver.getWhenTerminated().toCompletableFuture().isDone()
            && live.stream().allMatch(s -> upMembers(s).size() == NODES - 1));
        if (!gone) {
          return new Result(split, "-", "-", -1, "LEAVE FAILED");
        }
      }
      List<Node> a = live.subList(0, sizeA).stream().map(Node::of).toList();
      List<Node> b = live.subList(sizeA, live.size()).stream().map(Node::of).toList();
      List<Node> expected = ClusterPartitionTest.keepMajority(a, b);

      long cut = System.nanoTime();
      Partitions.cut(a, b);
      long[] decidedAt = {-1};
      boolean decided = await(DECIDE, () -> {
        if (decidedIn(a) || decidedIn(b)) {
          decidedAt[0] = System.nanoTime();
          return true;
        }
        return false;
      });
      String sides = ports(a, expected == a) + " | " + ports(b, expected == b);
      long ms = decidedAt[0] < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(decidedAt[0] - cut);
      if (!decided) {
        boolean aUp = a.stream().anyMatch(PartitionSoak::running);
        boolean bUp = b.stream().anyMatch(PartitionSoak::running);
        return new Result(split, sides, "-", -1, aUp && bUp ? "SPLIT BRAIN" : aUp || bUp ? "UNDECIDED" : "LOST");
      }
      List<Node> stayed = decidedIn(a) ? a : b;
      List<Node> went = stayed == a ? b : a;
      // the other side must be gone too, not merely quiet
      boolean wentDown = await(Duration.ofSeconds(30), () -> went.stream().noneMatch(PartitionSoak::running));
      String who = stayed == a ? "left" : "right";
      if (!wentDown) {
        return new Result(split, sides, who, ms, "SPLIT BRAIN");
      }
      if (stayed != expected) {
        return new Result(split, sides, who, ms, "WRONG SIDE");
      }
      Partitions.heal(stayed);
      sleep(SETTLED);
      Partitions.mergeRound(stayed.stream().map(Node::engine).toList());
      sleep(SETTLED);
      if (!decidedIn(stayed) || EngineFaults.view(stayed.get(0).engine()).size() != stayed.size()) {
        return new Result(split, sides, who, ms, "CHANGED AFTER HEAL");
      }
      return new Result(split, sides, who, ms, "ok");
    } catch (RuntimeException e) {
      return new Result("-", "-", "-", -1, "ERROR " + e);
    } finally {
      for (ActorSystem s : systems) {
        s.terminate();
      }
      for (ActorSystem s : systems) {
        TestKit.shutdownActorSystem(s);
      }
    }
  }

  /** @return whether every system of {@code side} runs and holds exactly the side as members, all Up */
  private static boolean decidedIn(List<Node> side) {
    Set<Address> expected = side.stream().map(n -> n.system().address()).collect(Collectors.toSet());
    for (Node n : side) {
      if (!running(n)) {
        return false;
      }
      List<Member> m = Cluster.get(n.system()).state().members();
      if (m.size() != expected.size() || !m.stream().allMatch(x -> x.status() == MemberStatus.UP && expected.contains(x.address()))) {
        return false;
      }
    }
    return true;
  }

  private static boolean running(Node n) {
    return !n.system().getWhenTerminated().toCompletableFuture().isDone();
  }

  private static List<Address> upMembers(ActorSystem s) {
    return Cluster.get(s).state().members().stream().filter(m -> m.status() == MemberStatus.UP).map(Member::address).toList();
  }

  private static String ports(List<Node> side, boolean stayed) {
    return side.stream().map(n -> n.system().address().port().orElse(0) + (stayed ? "*" : ""))
        .collect(Collectors.joining(","));
  }

  private static boolean await(Duration max, BooleanSupplier condition) {
    long deadline = System.nanoTime() + max.toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return true;
      }
      sleep(Duration.ofMillis(50));
    }
    return condition.getAsBoolean();
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static void say(String format, Object... args) {
    OUT.println(String.format(format, args));
    OUT.flush();
  }
}
