package dev.troupe.cluster.internal.core;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The cluster's measured table (issue 31): whole nodes ({@link ClusterChildNode}) in child JVMs on
 * loopback with the default settings (heartbeat 1 s, pause 5 s, stable-after 7 s, keep-majority),
 * several rounds. Each round:
 *
 * <ul>
 *   <li><b>join</b>: five nodes started one after the other; for each of the four joiners, from the
 *       moment it starts joining ({@code JOINING}, its actor system already running) until every
 *       node, itself included, has printed its {@code MemberUp};
 *   <li><b>kill -9</b>: the youngest is killed; until every other node printed its {@code
 *       MemberRemoved};
 *   <li><b>SIGSTOP</b>: the next youngest is stopped; until every other node printed its {@code
 *       MemberRemoved} (and no earlier than the pause + stable-after); then SIGCONT, and how long the
 *       resumed node takes to shut itself down;
 *   <li><b>idle</b>: a fresh three-node cluster, settled, then for {@code idle} seconds each node's CPU
 *       time ({@code /proc/<pid>/stat} utime + stime) and context switches (voluntary and not,
 *       summed over {@code /proc/<pid>/task/*}); the same for three bare remote systems ({@code
 *       troupe.actor.provider = remote}, nothing to do).
 * </ul>
 *
 * Prints each round and then the table (median and max). Linux only ({@code /proc}, {@code kill}).
 * Not a test: run it with {@code scripts/cluster-measure.sh [rounds] [idle seconds]}.
 */
public final class ClusterMeasure {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration EVENT = Duration.ofSeconds(60);
  private static final List<String> JVM = List.of("-Xmx256m");
  private static final long PAUSE_PLUS_STABLE_MS = 5_000 + 7_000;

  private ClusterMeasure() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int idleSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    long hz = clockTicks();
    List<Double> join = new ArrayList<>();
    List<Double> killed = new ArrayList<>();
    List<Double> stopped = new ArrayList<>();
    List<Double> resumedOut = new ArrayList<>();
    List<Double> clusterCpu = new ArrayList<>();
    List<Double> clusterCs = new ArrayList<>();
    List<Double> remoteCpu = new ArrayList<>();
    List<Double> remoteCs = new ArrayList<>();
    List<String> loads = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      loads.add(loadAverage());
      List<ChildNode> nodes = new ArrayList<>();
      try {
        String system = "measure" + round;
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          ChildNode n = ChildNode.start(JVM, system, i == 0 ? "found" : addresses.get(0));
          nodes.add(n);
          String address = n.address(START);
          addresses.add(address);
          int joining = n.await(0, ClusterChildNode.JOINING, x -> true, START);
          long joinAt = Long.parseLong(n.rest(joining, ClusterChildNode.JOINING).trim());
          long lastUp = 0;
          for (ChildNode m : nodes) {
            lastUp = Math.max(lastUp, m.eventTime(m.awaitEvent(0, "MemberUp", address, EVENT)));
          }
          if (i > 0) {
            join.add((double) (lastUp - joinAt));
          }
        }

        String victim = addresses.get(4);
        long killAt = System.currentTimeMillis();
        nodes.get(4).kill();
        killed.add((double) (lastRemoval(nodes.subList(0, 4), victim) - killAt));

        ChildNode frozen = nodes.get(3);
        String frozenAddress = addresses.get(3);
        long stopAt = System.currentTimeMillis();
        frozen.signal("STOP");
        stopped.add((double) (lastRemoval(nodes.subList(0, 3), frozenAddress) - stopAt));
        long contAt = System.currentTimeMillis();
        frozen.signal("CONT");
        int out = frozen.await(0, ClusterChildNode.SYSTEM_TERMINATED, x -> true, EVENT);
        resumedOut.add((double) (Long.parseLong(frozen.rest(out, ClusterChildNode.SYSTEM_TERMINATED).trim()) - contAt));
      } finally {
        for (ChildNode n : nodes) {
          n.kill();
        }
      }

      idle(round, "cluster", hz, idleSeconds, clusterCpu, clusterCs);
      idle(round, "remote", hz, idleSeconds, remoteCpu, remoteCs);
      System.out.printf(Locale.ROOT, "round %d: joins %s ms, kill -9 removed after %.0f ms, SIGSTOP removed after %.0f ms,"
              + " resumed node out after %.0f ms; load before: %s%n",
          round, join.subList(join.size() - 4, join.size()), last(killed), last(stopped), last(resumedOut), loads.get(round - 1));
    }
    System.out.println();
    System.out.println("Five nodes (three for idle cost) in child JVMs on loopback, default settings, " + rounds + " rounds;"
        + " load averages (1/5/15 min) before each round: " + loads);
    System.out.println("| measure | target | median | max | all |");
    System.out.println("|---|---|---|---|---|");
    row("new node Up on every node after it starts joining (ms)", "<= 2000", join);
    row("killed JVM (kill -9) removed from every view (ms)", "<= 3000", killed);
    row("SIGSTOPped node removed from every view (ms)", ">= " + PAUSE_PLUS_STABLE_MS + ", <= " + (PAUSE_PLUS_STABLE_MS + 1000), stopped);
    row("resumed (SIGCONT) node shut itself down (ms)", "-", resumedOut);
    row("idle 3-node cluster, CPU per node (% of a core)", "-", clusterCpu);
    row("idle bare remote system, CPU per node (% of a core)", "-", remoteCpu);
    row("idle 3-node cluster, context switches per node (/s)", "-", clusterCs);
    row("idle bare remote system, context switches per node (/s)", "-", remoteCs);
  }

  /** @return the wall-clock time at which the last of {@code observers} printed the member's removal */
  private static long lastRemoval(List<ChildNode> observers, String member) {
    long last = 0;
    for (ChildNode o : observers) {
      last = Math.max(last, o.eventTime(o.awaitEvent(0, "MemberRemoved", member, EVENT)));
    }
    return last;
  }

  /** Three idle nodes of the kind, settled, measured for {@code seconds}; one sample per node. */
  private static void idle(int round, String kind, long hz, int seconds, List<Double> cpu, List<Double> cs) throws Exception {
    boolean cluster = kind.equals("cluster");
    String system = "idle" + kind + round;
    List<ChildNode> nodes = new ArrayList<>();
    try {
      String first = null;
      for (int i = 0; i < 3; i++) {
        ChildNode n = cluster
            ? ChildNode.start(JVM, system, i == 0 ? "found" : first)
            : ChildNode.start(JVM, system, "found", "--remote");
        nodes.add(n);
        String address = n.address(START);
        if (i == 0) {
          first = address;
        }
      }
      if (cluster) {
        for (ChildNode n : nodes) {
          for (ChildNode m : nodes) {
            n.awaitEvent(0, "MemberUp", m.address(START), EVENT);
          }
        }
      }
      Thread.sleep(5_000); // settle: start-up work (class loading, the first compilations) done
      long[][] before = new long[nodes.size()][];
      for (int i = 0; i < nodes.size(); i++) {
        before[i] = sample(nodes.get(i).process().pid());
      }
      long t0 = System.nanoTime();
      Thread.sleep(seconds * 1000L);
      double elapsed = (System.nanoTime() - t0) / 1e9;
      for (int i = 0; i < nodes.size(); i++) {
        long[] after = sample(nodes.get(i).process().pid());
        cpu.add(100.0 * (after[0] - before[i][0]) / hz / elapsed);
        cs.add((after[1] - before[i][1]) / elapsed);
      }
    } finally {
      for (ChildNode n : nodes) {
        n.kill();
      }
    }
  }

  /** @return {utime + stime in clock ticks, context switches summed over the threads} */
  private static long[] sample(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15 of stat(5)
    long switches = 0;
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks) {
        List<String> status;
        try {
          status = Files.readAllLines(task.resolve("status"));
        } catch (IOException threadEnded) {
          continue;
        }
        for (String line : status) {
          if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
            switches += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
          }
        }
      }
    }
    return new long[] {ticks, switches};
  }

  private static long clockTicks() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      p.waitFor();
      return Long.parseLong(out);
    } catch (IOException | NumberFormatException | InterruptedException e) {
      return 100;
    }
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + "/" + f[1] + "/" + f[2];
    } catch (IOException e) {
      return "?";
    }
  }

  private static double last(List<Double> v) {
    return v.get(v.size() - 1);
  }

  private static void row(String what, String target, List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    String all = Arrays.stream(v).mapToObj(x -> String.format(Locale.ROOT, "%.1f", x)).toList().toString();
    System.out.printf(Locale.ROOT, "| %s | %s | %.1f | %.1f | %s |%n", what, target, median, v[v.length - 1], all);
  }
}
