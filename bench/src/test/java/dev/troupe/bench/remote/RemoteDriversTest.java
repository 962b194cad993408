package dev.troupe.bench.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.bench.common.ProcCpu;
import dev.troupe.bench.common.RoundTrips;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The drivers behind {@code RemotePingPong}'s raw baseline and its two-JVM variant: every round
 * trip is recorded, and the child JVM is gone once the driver is torn down.
 */
class RemoteDriversTest {
  private static Histogram[] histograms(int n) {
    Histogram[] h = new Histogram[n];
    for (int i = 0; i < n; i++) {
      h[i] = RoundTrips.newHistogram();
    }
    return h;
  }

  private static void runTwice(RemotePingPongDriver driver, int pairs, int inFlight, int roundTrips) {
    try {
      driver.setup(pairs, inFlight);
      for (int round = 0; round < 2; round++) {
        Histogram[] h = histograms(pairs);
        driver.runIteration(roundTrips, h);
        for (Histogram one : h) {
          assertEquals(roundTrips, one.getTotalCount(), "round trips recorded by one pair");
          assertTrue(one.getMinValue() > 0, "a round trip takes time");
        }
      }
    } finally {
      driver.teardown();
    }
  }

  @Test
  @Timeout(120)
  void theRawBaselineRecordsEveryRoundTripWithAndWithoutBatching() {
    runTwice(RemotePingPongDriver.create("raw", 1), 2, 1, 200);
    runTwice(RemotePingPongDriver.create("raw-batched", 1), 3, 50, 500);
  }

  @Test
  @Timeout(120)
  void theFrameOfTheRawBaselineIsTroupesEnvelopeOfThePing() {
    int body = RawSocketPingPong.frameBody();
    // the CBOR record: its 100-byte payload, the two field names, the long; four one-byte refs before it
    assertTrue(body > 4 + 100 + 8 && body < 4 + 160, "frame body of " + body + " bytes");
  }

  @Test
  @Timeout(180)
  void theEchoSideInAChildJvmAnswersAndTheChildIsGoneAfterTeardown() {
    for (String impl : new String[] {"raw-batched", "troupe"}) {
      RemotePingPongDriver driver = RemotePingPongDriver.create(impl, 2);
      long pid;
      try {
        driver.setup(2, 4);
        pid = driver.childPid();
        assertTrue(pid > 0 && pid != ProcessHandle.current().pid(), impl + ": the pong side runs in a child, pid " + pid);
        assertTrue(ProcCpu.nanos(pid) >= 0, "the child's CPU time can be read");
        Histogram[] h = histograms(2);
        driver.runIteration(100, h);
        assertEquals(100, h[0].getTotalCount());
        assertEquals(100, h[1].getTotalCount());
      } finally {
        driver.teardown();
      }
      Optional<ProcessHandle> child = ProcessHandle.of(pid);
      assertFalse(child.isPresent() && child.get().isAlive(), impl + ": the child JVM " + pid + " outlived the teardown");
    }
  }
}
