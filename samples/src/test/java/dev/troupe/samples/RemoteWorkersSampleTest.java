package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** remote-workers: the watch-the-routees job with its workers deployed over two other nodes. */
class RemoteWorkersSampleTest {
  private static final Pattern WORKER =
      Pattern.compile("worker \\$\\w+ on (troupe://workers@127\\.0\\.0\\.1:\\d+): \\1/remote/master@127\\.0\\.0\\.1:\\d+/user/master/workers/");

  /** @return the worker nodes the output names, checking each worker's line */
  private static Set<String> workerNodes(String out, int workers) {
    Matcher m = WORKER.matcher(out);
    Set<String> nodes = new HashSet<>();
    int n = 0;
    while (m.find()) {
      nodes.add(m.group(1));
      n++;
    }
    assertEquals(workers, n, "one line per worker:\n" + out);
    return nodes;
  }

  @Test
  void theJobRunsWithItsWorkersOnTwoNodes() {
    String out = Launcher.run(0, "remote-workers", "--tasks", "10", "--workers", "4");
    assertEquals(2, workerNodes(out, 4).size(), "spread over both nodes:\n" + out);
    assertTrue(out.contains("job job-1 done: sum of squares of 1..10 = 385"), out);
  }

  @Test
  void aPoisonedTaskStopsItsRemoteWorkerAndTheMasterAbortsTheJob() {
    String out = Launcher.run(0, "remote-workers", "--tasks", "10", "--workers", "4", "--poison-task", "4");
    workerNodes(out, 4);
    assertTrue(out.contains("job job-1 aborted: worker") && out.contains("stopped after repeated failures"), out);
  }

  @Test
  void itHasHelpAndRejectsABadNodeList() {
    assertTrue(Launcher.run(0, "remote-workers", "--help").contains("--nodes"));
    assertTrue(Launcher.run(2, "remote-workers", "--nodes", "not-an-address").contains("--nodes"));
  }
}
