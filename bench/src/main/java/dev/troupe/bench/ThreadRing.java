package dev.troupe.bench;

import dev.troupe.bench.common.Impl;
import dev.troupe.bench.savina.PekkoThreadRing;
import dev.troupe.bench.savina.SavinaBenchmark;
import dev.troupe.bench.savina.SavinaDriver;
import dev.troupe.bench.savina.TroupeThreadRing;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Savina "Thread Ring" ({@code threadring}): {@value #RING} actors in a ring pass one token; each
 * member forwards a new token with one hop less to its successor until the count reaches zero. Only
 * one message exists at any time, so this measures the hand-off latency between actors (mailbox
 * scheduling and thread wake-ups). Score: hops per second.
 *
 * <p>Sizes: Savina N = 100 actors (unchanged); R = {@value #HOPS} hops instead of Savina's 100,000,
 * so one invocation takes 0.2 s or more on the faster side. The ring is built once per trial and
 * Savina's final exit round is left out (actors are reused by the next invocation).
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ThreadRing -f 2 -wi 3 -i 5 -r 1s}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ThreadRing extends SavinaBenchmark {
  /** Ring members (Savina N). */
  public static final int RING = 100;

  /** Token hops per invocation (Savina R, scaled up 20x). */
  public static final int HOPS = 2_000_000;

  @Override
  protected SavinaDriver troupe() {
    return new TroupeThreadRing();
  }

  @Override
  protected SavinaDriver pekko(Impl pekko) {
    return new PekkoThreadRing(pekko);
  }

  @Override
  protected int setupSize() {
    return RING;
  }

  @Benchmark
  @OperationsPerInvocation(HOPS)
  public void ring() {
    driver.runIteration(HOPS);
  }
}
