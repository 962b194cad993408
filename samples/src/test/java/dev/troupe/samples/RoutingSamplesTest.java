package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

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
    Logger logger = (Logger) LoggerFactory.getLogger("dev.troupe.actor.watch-the-routees");
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    logger.addAppender(log);
    String out;
    try {
      out = run("watch-the-routees", "--tasks", "10", "--workers", "3", "--poison-task", "4");
    } finally {
      logger.detachAppender(log);
    }
    assertTrue(out.contains("job job-1 aborted: worker") && out.contains("stopped after repeated failures"), out);

    // The poisoned task's failures are expected: one line each, no stack trace, the decision named.
    List<String> failures = new ArrayList<>();
    synchronized (log) {
      for (ILoggingEvent e : log.list) {
        if (e.getFormattedMessage().contains(" failed: ")) {
          assertEquals(Level.WARN, e.getLevel(), e.toString());
          assertNull(e.getThrowableProxy(), "no stack trace: " + e);
          failures.add(e.getFormattedMessage());
        }
      }
    }
    assertEquals(3, failures.size(), failures.toString());
    for (String f : failures) {
      assertTrue(f.matches("troupe://watch-the-routees/user/master/workers/\\S+ failed: \\S+PoisonedTask: task 4 is poisoned; .*"), f);
    }
    assertTrue(failures.get(0).endsWith("; restart"), failures.toString());
    assertTrue(failures.get(1).endsWith("; restart"), failures.toString());
    assertTrue(failures.get(2).endsWith("; stop (restart limit of 2 within 1 min reached)"), failures.toString());
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
