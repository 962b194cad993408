package dev.troupe.remote.internal.watch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The phi calculation, on a clock the test moves by hand. */
class PhiAccrualFailureDetectorTest {
  private long now = 1_000_000_000L;

  private PhiAccrualFailureDetector detector(Duration pause) {
    return new PhiAccrualFailureDetector(10.0, pause, Duration.ofSeconds(1), () -> now);
  }

  private void advanceMillis(long ms) {
    now += TimeUnit.MILLISECONDS.toNanos(ms);
  }

  private void regularHeartbeats(PhiAccrualFailureDetector d, int n) {
    for (int i = 0; i < n; i++) {
      advanceMillis(1000);
      d.heartbeat();
    }
  }

  @Test
  void phiRisesTheLongerTheNodeIsSilent() {
    PhiAccrualFailureDetector d = detector(Duration.ofSeconds(1));
    regularHeartbeats(d, 20);
    double previous = d.phi();
    for (int i = 0; i < 10; i++) {
      advanceMillis(500);
      double phi = d.phi();
      assertTrue(phi > previous, "phi " + phi + " after " + previous);
      previous = phi;
    }
    assertTrue(d.suspects(), "5 s of silence with 1 s heartbeats and a 1 s pause: phi " + d.phi());
  }

  @Test
  void phiStaysLowWithRegularHeartbeats() {
    PhiAccrualFailureDetector d = detector(Duration.ofSeconds(3));
    for (int i = 0; i < 200; i++) {
      advanceMillis(i % 2 == 0 ? 900 : 1100);
      d.heartbeat();
      assertTrue(d.phi() < 0.1, "phi right after a heartbeat: " + d.phi());
    }
    advanceMillis(1200);
    assertFalse(d.suspects(), "a slightly late heartbeat: phi " + d.phi());
  }

  @Test
  void silenceWithinTheAcceptablePauseIsNotSuspected() {
    PhiAccrualFailureDetector d = detector(Duration.ofSeconds(10));
    regularHeartbeats(d, 20);
    assertSuspectedBetween(d, 10_000, 13_000); // interval + pause - 1 s, + 2 s
  }

  /** Not suspected after {@code quietMs} of silence, suspected after {@code suspectedMs}. */
  private void assertSuspectedBetween(PhiAccrualFailureDetector d, long quietMs, long suspectedMs) {
    advanceMillis(quietMs);
    assertFalse(d.suspects(), quietMs + " ms of silence: phi " + d.phi());
    advanceMillis(suspectedMs - quietMs);
    assertTrue(d.suspects(), suspectedMs + " ms of silence: phi " + d.phi());
  }

  @Test
  void aNodeThatNeverAnswersIsSuspectedAfterTheIntervalAndThePause() {
    assertSuspectedBetween(detector(Duration.ofSeconds(2)), 2_500, 5_000);
  }

  @Test
  void theWindowIsBoundedSoOldGapsAreForgotten() {
    PhiAccrualFailureDetector d = detector(Duration.ZERO);
    for (int i = 0; i < PhiAccrualFailureDetector.WINDOW; i++) {
      advanceMillis(5_000); // slow at first
      d.heartbeat();
    }
    regularHeartbeats(d, PhiAccrualFailureDetector.WINDOW); // then every second only
    advanceMillis(3_000);
    assertTrue(d.suspects(), "3 s after 1 s heartbeats, the 5 s gaps forgotten: phi " + d.phi());
  }
}
