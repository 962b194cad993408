package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class PingPongSampleTest {

  private static String run(int expectedExit, String... args) {
    return Launcher.run(expectedExit, args);
  }

  @Test
  void launcherWithoutArgumentsListsTheSamples() throws Exception {
    String out = run(0);
    assertTrue(out.contains("pingpong"), out);
  }

  @Test
  void unknownSampleIsReportedWithTheList() throws Exception {
    String out = run(2, "no-such-sample");
    assertTrue(out.contains("'no-such-sample'") && out.contains("pingpong"), out);
  }

  @ParameterizedTest
  @ValueSource(strings = {"affinity", "fork-join", "thread-pool"})
  void pingpongRunsOnEveryExecutorAndReportsThroughput(String executor) throws Exception {
    String out = run(0, "pingpong", "--pairs", "2", "--seconds", "1", "--executor", executor, "--in-flight", "2");
    assertTrue(out.contains("second 1:") && out.contains("messages/s on average"), out);
    assertTrue(!out.contains(" 0 messages/s on average"), "no messages were exchanged:\n" + out);
  }

  @Test
  void badFlagsGetAClearMessage() throws Exception {
    assertTrue(run(2, "pingpong", "--pairs", "zero").contains("Invalid value for option '--pairs': 'zero' is not an int"));
    assertTrue(run(2, "pingpong", "--executor", "magic").contains("Invalid value for option '--executor'"));
    String unknown = run(2, "pingpong", "--bogus", "1");
    assertTrue(unknown.contains("Unknown options: '--bogus', '1'") && unknown.contains("--throughput="), unknown);
  }
}
