package dev.troupe.bench;

import dev.troupe.bench.common.Impl;
import dev.troupe.bench.savina.PekkoBig;
import dev.troupe.bench.savina.SavinaBenchmark;
import dev.troupe.bench.savina.SavinaDriver;
import dev.troupe.bench.savina.TroupeBig;
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
 * Savina "Big" ({@code big}): {@value #WORKERS} worker actors each send pings to randomly chosen
 * workers (one outstanding at a time; seeded {@link java.util.SplittableRandom} per worker, so both
 * frameworks send the same sequence); every ping is answered with a pong; after {@value #PINGS}
 * pongs a worker reports to a sink, which completes the invocation when all workers reported.
 * Many-to-many messaging with random targets. Score: pings per second (two messages each).
 *
 * <p>Sizes: Savina W = 120 workers (unchanged); N = {@value #PINGS} pings per worker instead of
 * Savina's 20,000, so one invocation stays under about 2 s on 2 cores.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar Big -f 2 -wi 3 -i 5 -r 1s}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class Big extends SavinaBenchmark {
  /** Worker actors (Savina W). */
  public static final int WORKERS = 120;

  /** Pings per worker per invocation (Savina N, halved). */
  public static final int PINGS = 10_000;

  @Override
  protected SavinaDriver troupe() {
    return new TroupeBig();
  }

  @Override
  protected SavinaDriver pekko(Impl pekko) {
    return new PekkoBig(pekko);
  }

  @Override
  protected int setupSize() {
    return WORKERS;
  }

  @Benchmark
  @OperationsPerInvocation((WORKERS * PINGS))
  public void pings() {
    driver.runIteration(PINGS);
  }
}
