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

  /** The launcher's exit code for a command line it cannot run. */
  static final int USAGE_ERROR = 2;

  /**
   * What one run printed.
   *
   * @param out the standard output
   * @param err the error stream
   */
  record Output(String out, String err) {}

  private Launcher() {}

  /**
   * @param expectedExit the exit code the run must end with
   * @param args the sample's name and options
   * @return what it printed on both streams, as a terminal shows it
   */
  static String run(int expectedExit, String... args) {
    return assertTimeoutPreemptively(
        BOUND,
        () -> {
          ByteArrayOutputStream bytes = new ByteArrayOutputStream();
          PrintStream both = new PrintStream(bytes, true, StandardCharsets.UTF_8);
          int exit = Main.run(args, both, both);
          String out = bytes.toString(StandardCharsets.UTF_8);
          assertEquals(expectedExit, exit, "exit code; output was:\n" + out);
          return out;
        });
  }

  /**
   * @param expectedExit the exit code the run must end with
   * @param args the sample's name and options
   * @return what it printed on each stream
   */
  static Output runApart(int expectedExit, String... args) {
    return assertTimeoutPreemptively(
        BOUND,
        () -> {
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          ByteArrayOutputStream err = new ByteArrayOutputStream();
          int exit = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));
          Output o = new Output(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
          assertEquals(expectedExit, exit, "exit code; output was:\n" + o);
          return o;
        });
  }
}
