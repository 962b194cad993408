package dev.troupe.actor.internal.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

/** The one stderr line a system prints when SLF4J has no provider, so actor failures would vanish. */
class LoggingProviderCheckTest {

  @Test
  void withoutAProviderTheNoticeSaysFailuresAreInvisibleAndHowToFixIt() {
    Optional<String> notice = LoggingProviderCheck.notice(new NOPLoggerFactory(), true);
    assertTrue(notice.isPresent());
    String line = notice.get();
    assertTrue(line.contains("invisible"), line);
    assertTrue(line.contains("logback-classic"), line);
    assertTrue(line.contains(LoggingProviderCheck.SWITCH), "says how to silence it: " + line);
    assertEquals(-1, line.indexOf('\n'), "one line: " + line);
  }

  @Test
  void withAProviderOrSwitchedOffThereIsNoNotice() {
    assertEquals(Optional.empty(), LoggingProviderCheck.notice(LoggerFactory.getILoggerFactory(), true));
    assertEquals(Optional.empty(), LoggingProviderCheck.notice(new NOPLoggerFactory(), false));
  }
}
