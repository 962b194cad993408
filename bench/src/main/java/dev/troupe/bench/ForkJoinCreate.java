package dev.troupe.bench;

import dev.troupe.bench.common.Impl;
import dev.troupe.bench.savina.PekkoForkJoinCreate;
import dev.troupe.bench.savina.SavinaBenchmark;
import dev.troupe.bench.savina.SavinaDriver;
import dev.troupe.bench.savina.TroupeForkJoinCreate;
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
 * Savina "Fork Join (actor creation)" ({@code fjcreate}): the benchmark thread creates {@value
 * #ACTORS} top-level actors and sends each one message; each computes sin²(37.2) once and stops
 * itself; the invocation completes when all have stopped (counted in {@code postStop}). Score:
 * actors created, run and stopped per second.
 *
 * <p>Size: {@value #ACTORS} actors instead of Savina's 40,000, so one invocation takes 0.2 s or
 * more on the faster side.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ForkJoinCreate -f 2 -wi 3 -i 5 -r 1s}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ForkJoinCreate extends SavinaBenchmark {
  /** Actors created per invocation (Savina N, scaled up 2x). */
  public static final int ACTORS = 80_000;

  @Override
  protected SavinaDriver troupe() {
    return new TroupeForkJoinCreate();
  }

  @Override
  protected SavinaDriver pekko(Impl pekko) {
    return new PekkoForkJoinCreate(pekko);
  }

  @Override
  protected int setupSize() {
    return 0;
  }

  @Benchmark
  @OperationsPerInvocation(ACTORS)
  public void createActors() {
    driver.runIteration(ACTORS);
  }
}
