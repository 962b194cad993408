package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class RoutingSamplesTest {

  private static String run(String... args) {
    return Launcher.run(0, args);
  }

  @Test
  void aJobWithoutPoisonedTasksAggregatesEveryResult() throws Exception {
    String out = run("watch-the-routees", "--tasks", "10", "--workers", "3");
    // 1^2 + ... + 10^2
    assertTrue(out.contains("job job-1 done: sum of squares of 1..10 = 385"), out);
  }

  @Test
  void aPoisonedTaskStopsItsWorkerAfterTwoRestartsAndAbortsTheJob() throws Exception {
    String out = run("watch-the-routees", "--tasks", "10", "--workers", "3", "--poison-task", "4");
    assertTrue(out.contains("job job-1 aborted: worker") && out.contains("stopped after repeated failures"), out);
  }

  @Test
  void theResizerSampleGrowsThePoolUnderTheBurstAndShrinksItAfter() throws Exception {
    String out = run("resizer", "--seconds", "3", "--upper", "6", "--task-ms", "30");
    Matcher m = Pattern.compile("peak pool size (\\d+), final pool size (\\d+)").matcher(out);
    assertTrue(m.find(), out);
    int peak = Integer.parseInt(m.group(1));
    int last = Integer.parseInt(m.group(2));
    assertTrue(peak > 2, "grew beyond the lower bound 2:\n" + out);
    assertTrue(last < peak, "shrank after the burst:\n" + out);
  }

  @Test
  void theLauncherListsTheRoutingSamples() throws Exception {
    String out = run();
    assertTrue(out.contains("watch-the-routees") && out.contains("resizer"), out);
  }
}
