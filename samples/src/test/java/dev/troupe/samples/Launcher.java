package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Runs the samples launcher in this JVM, bounded in time, as the command line would. */
final class Launcher {
  /** The longest any sample may run in a test. */
  static final Duration BOUND = Duration.ofSeconds(60);

  private Launcher() {}

  /**
   * @param expectedExit the exit code the run must end with
   * @param args the sample's name and flags
   * @return what it printed
   */
  static String run(int expectedExit, String... args) {
    return assertTimeoutPreemptively(
        BOUND,
        () -> {
          ByteArrayOutputStream bytes = new ByteArrayOutputStream();
          int exit = Main.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8));
          String out = bytes.toString(StandardCharsets.UTF_8);
          assertEquals(expectedExit, exit, "exit code; output was:\n" + out);
          return out;
        });
  }
}
