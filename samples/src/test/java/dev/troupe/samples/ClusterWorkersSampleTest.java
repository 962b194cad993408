package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * cluster-workers: the watch-the-routees job with its workers on the cluster's worker members, found
 * by a cluster-aware pool (nobody lists the nodes), on loopback in this JVM.
 */
class ClusterWorkersSampleTest {
  private static final Pattern WORKER = Pattern.compile(
      "worker \\$\\w+ on (troupe://cluster-workers@127\\.0\\.0\\.1:\\d+): \\1/remote/cluster-workers@127\\.0\\.0\\.1:\\d+/user/master/workers/");
  private static final Pattern WORKER_MEMBER =
      Pattern.compile("worker member listening at (troupe://cluster-workers@127\\.0\\.0\\.1:\\d+)");
  private static final Pattern MASTER = Pattern.compile("master listening at (troupe://cluster-workers@127\\.0\\.0\\.1:\\d+)");

  /** @return worker node -> workers the output puts there, checking each worker's line */
  private static Map<String, Integer> workersByNode(String out, int workers) {
    Matcher m = WORKER.matcher(out);
    Map<String, Integer> nodes = new HashMap<>();
    int n = 0;
    while (m.find()) {
      nodes.merge(m.group(1), 1, Integer::sum);
      n++;
    }
    assertEquals(workers, n, "one line per worker:\n" + out);
    return nodes;
  }

  private static Map<String, Integer> expected(String out, int each) {
    Map<String, Integer> members = new HashMap<>();
    Matcher m = WORKER_MEMBER.matcher(out);
    while (m.find()) {
      members.put(m.group(1), each);
    }
    return members;
  }

  @Test
  void theJobRunsWithTwoWorkersOnEachWorkerMemberAndNoneOnTheMaster() {
    String out = Launcher.run(0, "cluster-workers", "--tasks", "10", "--workers", "4");
    Map<String, Integer> where = workersByNode(out, 4);
    assertEquals(expected(out, 2), where, "two workers on each of the two worker members:\n" + out);
    Matcher master = MASTER.matcher(out);
    assertTrue(master.find(), out);
    assertTrue(!where.containsKey(master.group(1)), "none on the master, which has no worker role:\n" + out);
    assertTrue(out.contains("job job-1 done: sum of squares of 1..10 = 385"), out);
  }

  @Test
  void aPoisonedTaskStopsItsWorkerAcrossTheWireAndTheMasterAbortsTheJob() {
    String out = Launcher.run(0, "cluster-workers", "--tasks", "10", "--workers", "3", "--poison-task", "4");
    assertEquals(3, workersByNode(out, 3).values().stream().mapToInt(Integer::intValue).sum(), out);
    assertTrue(out.contains("job job-1 aborted: worker") && out.contains("stopped after repeated failures"), out);
  }

  @Test
  void itHasHelpAndRejectsBadOptions() {
    assertTrue(Launcher.run(0, "cluster-workers", "--help").contains("--seed"));
    assertTrue(Launcher.run(2, "cluster-workers", "--serve", "0").contains("--seed"));
    assertTrue(Launcher.run(2, "cluster-workers", "--serve", "0", "--seed", "not-an-address").contains("--seed"));
    assertTrue(Launcher.run(2, "cluster-workers", "--local-workers", "0").contains("--expect-workers"));
  }
}
