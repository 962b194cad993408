package dev.troupe.actor.internal.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.Telemetry.Summary;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The log-linear buckets: every value lands in a bucket whose upper edge is within 1/8 of it. */
class LogHistogramTest {

  @Test
  void bucketEdgesBoundEveryValueWithinAnEighth() {
    SplittableRandom r = new SplittableRandom(20);
    for (int i = 0; i < 200_000; i++) {
      long v = r.nextLong(Long.MAX_VALUE) >>> r.nextInt(63);
      int b = LogHistogram.index(v);
      long edge = LogHistogram.upperEdge(b);
      assertTrue(edge >= v, v + " above the edge " + edge + " of its bucket " + b);
      assertTrue(edge - v <= v / LogHistogram.SUB, v + " more than 1/8 below its edge " + edge);
      assertTrue(b == 0 || LogHistogram.upperEdge(b - 1) < v, v + " fits the bucket before " + b);
    }
    assertEquals(Long.MAX_VALUE, LogHistogram.upperEdge(LogHistogram.index(Long.MAX_VALUE)));
  }

  @Test
  void percentilesOfKnownValues() {
    LogHistogram h = new LogHistogram();
    for (int v = 1; v <= 100; v++) {
      h.record(v * 1000L);
    }
    h.record(-5); // a clock step back counts as 0
    Summary s = h.summary();
    assertEquals(101, s.samples());
    assertEquals(100_000, s.max());
    assertTrue(s.p50() >= 50_000 && s.p50() <= 50_000 * 9 / 8, "p50 " + s.p50());
    assertTrue(s.p90() >= 90_000 && s.p90() <= 90_000 * 9 / 8, "p90 " + s.p90());
    assertTrue(s.p99() >= 99_000 && s.p99() <= 100_000, "p99 " + s.p99());
    assertEquals(Summary.EMPTY, new LogHistogram().summary());
  }
}
