package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.samples.quickstart.TypedQuickStart;
import org.junit.jupiter.api.Test;

/** The samples written typed: the quick start and watch-the-routees. */
class TypedSamplesTest {
  @Test
  void theTypedQuickStartTellsAsksAndStops() throws Exception {
    // the tell is enqueued before the ask's question (one thread sends both), so this is greeting #2
    assertEquals("Hello, Troupe #2", TypedQuickStart.run());
  }

  @Test
  void theTypedQuickStartRunsFromTheLauncher() {
    String out = Launcher.run(0, "typed-quickstart");
    assertTrue(out.contains("Hello, Troupe #2"), out);
  }

  @Test
  void aTypedJobWithoutPoisonedTasksAggregatesEveryResult() {
    String out = Launcher.run(0, "typed-routees", "--tasks", "10", "--workers", "3");
    assertTrue(out.contains("job job-1 done: sum of squares of 1..10 = 385"), out); // 1^2 + ... + 10^2
  }

  @Test
  void aPoisonedTaskStopsItsTypedWorkerAfterTwoRestartsAndAbortsTheJob() {
    String out = Launcher.run(0, "typed-routees", "--tasks", "10", "--workers", "3", "--poison-task", "4");
    // task 4 goes to worker 4 mod 3 + 1 = 2; it is tried three times (two restarts), then stopped
    assertTrue(out.contains("job job-1 aborted: worker worker-2 was stopped after repeated failures"), out);
  }

  @Test
  void aJobWithMoreWorkersThanTasksLeavesSomeIdle() {
    String out = Launcher.run(0, "typed-routees", "--tasks", "2", "--workers", "5");
    assertTrue(out.contains("job job-1 done: sum of squares of 1..2 = 5"), out);
  }

  @Test
  void theLauncherListsTheTypedSamples() {
    String out = Launcher.run(0);
    assertTrue(out.contains("typed-quickstart") && out.contains("typed-routees"), out);
  }
}
