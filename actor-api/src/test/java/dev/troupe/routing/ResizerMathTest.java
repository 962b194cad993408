package dev.troupe.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ResizerMathTest {
  private static final RouteeLoad QUEUED = new RouteeLoad(true, true, 1);
  private static final RouteeLoad BUSY = new RouteeLoad(true, false, 0);

  private static List<RouteeLoad> loads(int pressured, int idle) {
    List<RouteeLoad> l = new ArrayList<>(Collections.nCopies(pressured, QUEUED));
    l.addAll(Collections.nCopies(idle, RouteeLoad.IDLE));
    return l;
  }

  @Test
  void defaultResizerRampsUpWhenEveryRouteeIsUnderPressure() {
    DefaultResizer r = new DefaultResizer(1, 10).withRampupRate(0.5);
    assertEquals(3, r.resize(loads(5, 0))); // ceil(5 * 0.5)
    assertEquals(0, r.resize(loads(4, 1))); // not all under pressure, not below the back-off threshold
  }

  @Test
  void defaultResizerBacksOffWhenFewRouteesAreUnderPressure() {
    DefaultResizer r = new DefaultResizer(1, 10).withBackoffThreshold(0.3).withBackoffRate(0.1);
    assertEquals(-1, r.resize(loads(0, 5))); // ceil(5 * 0.1): small pools shrink too
    assertEquals(-1, r.resize(loads(2, 8)));
    assertEquals(0, r.resize(loads(3, 7)));
  }

  @Test
  void defaultResizerClampsToItsBounds() {
    DefaultResizer r = new DefaultResizer(2, 6).withRampupRate(1.0);
    assertEquals(2, r.resize(loads(4, 0))); // 4 + 4 clamped to 6
    assertEquals(0, r.resize(loads(0, 2))); // already at the lower bound
    assertEquals(2, r.resize(List.of())); // below the lower bound: grow to it
  }

  @Test
  void pressureThresholdZeroCountsBusyRoutees() {
    DefaultResizer r = new DefaultResizer(1, 10).withPressureThreshold(0).withRampupRate(1.0);
    assertEquals(2, r.resize(List.of(BUSY, BUSY)));
    // threshold 1: busy routees without waiting messages are not under pressure, so it backs off
    assertEquals(-1, new DefaultResizer(1, 10).resize(List.of(BUSY, BUSY)));
  }

  @Test
  void defaultResizerChecksEveryMessagesPerResize() {
    DefaultResizer r = new DefaultResizer(1, 10).withMessagesPerResize(3);
    assertTrue(r.isTimeForResize(0));
    assertTrue(!r.isTimeForResize(1) && !r.isTimeForResize(2));
    assertTrue(r.isTimeForResize(3));
  }

  private static OptimalSizeExploringResizer optimal(AtomicLong clock, double exploration, Random random) {
    return new OptimalSizeExploringResizer(
        1, 20, 0.2, Duration.ofSeconds(1), 12, 0.1, 0.8, Duration.ofSeconds(10), exploration, 1.0,
        clock::get, random);
  }

  @Test
  void optimalSizeExploringResizerMovesTowardsTheFastestRecordedSize() {
    AtomicLong clock = new AtomicLong();
    OptimalSizeExploringResizer r = optimal(clock, 0.0, new Random(1));
    long sec = 1_000_000_000L;
    // Size 4 measured at 100 msg/s, size 8 at 400 msg/s, both fully utilized.
    r.reportMessageCount(loads(4, 0), 0);
    clock.addAndGet(sec);
    r.reportMessageCount(loads(4, 0), 100);
    r.reportMessageCount(loads(8, 0), 100);
    clock.addAndGet(sec);
    r.reportMessageCount(loads(8, 0), 500);
    // Back at size 4 and fully utilized: optimize towards 8, half-way.
    r.reportMessageCount(loads(4, 0), 600);
    assertEquals(2, r.resize(loads(4, 0)));
  }

  @Test
  void optimalSizeExploringResizerExploresOnlyWhenFullyUtilized() {
    AtomicLong clock = new AtomicLong();
    OptimalSizeExploringResizer r = optimal(clock, 1.0, new Random(7));
    r.reportMessageCount(loads(10, 0), 0);
    int change = r.resize(loads(10, 0));
    assertTrue(change != 0 && Math.abs(change) <= 1, "explores by 1..ceil(10 * 0.1): " + change);
    r.reportMessageCount(loads(5, 5), 10);
    assertEquals(0, r.resize(loads(5, 5)), "not fully utilized: keep the size");
  }

  @Test
  void optimalSizeExploringResizerDownsizesAfterBeingUnderutilizedLongEnough() {
    AtomicLong clock = new AtomicLong();
    OptimalSizeExploringResizer r = optimal(clock, 0.0, new Random(3));
    r.reportMessageCount(loads(5, 15), 0);
    assertEquals(0, r.resize(loads(5, 15)));
    clock.addAndGet(11_000_000_000L);
    r.reportMessageCount(loads(4, 16), 10);
    assertEquals(4 - 20, r.resize(loads(5, 15)), "down to ceil(5 * 0.8)");
  }

  @Test
  void optimalSizeExploringResizerActsOncePerActionInterval() {
    AtomicLong clock = new AtomicLong();
    OptimalSizeExploringResizer r = optimal(clock, 0.0, new Random(3));
    assertTrue(!r.isTimeForResize(0));
    clock.addAndGet(1_000_000_000L);
    assertTrue(r.isTimeForResize(5));
    r.resize(loads(1, 0));
    assertTrue(!r.isTimeForResize(6));
    assertTrue(r.newPoolInstance() != r, "each pool gets its own measurements");
  }
}
