package dev.troupe.bench;

import dev.troupe.bench.common.Impl;
import dev.troupe.bench.savina.PekkoThreadRing;
import dev.troupe.bench.savina.SavinaDriver;
import dev.troupe.bench.savina.TroupeThreadRing;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
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
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ThreadRing {
  /** Ring members (Savina N). */
  public static final int RING = 100;

  /** Token hops per invocation (Savina R, scaled up 20x). */
  public static final int HOPS = 2_000_000;

  /** troupe | pekko | pekko-tuned (see {@link Impl}). */
  @Param({"troupe", "pekko", "pekko-tuned"})
  public String impl;

  private SavinaDriver driver;

  @Setup(Level.Trial)
  public void setup() {
    Impl i = Impl.of(impl);
    driver = i == Impl.TROUPE ? new TroupeThreadRing() : new PekkoThreadRing(i);
    driver.setup(RING);
  }

  @Benchmark
  @OperationsPerInvocation(HOPS)
  public void ring() {
    driver.runIteration(HOPS);
  }

  @TearDown(Level.Trial)
  public void teardown() {
    if (driver != null) {
      driver.teardown();
    }
  }
}
