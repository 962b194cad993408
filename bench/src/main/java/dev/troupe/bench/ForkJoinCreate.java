package dev.troupe.bench;

import dev.troupe.bench.common.Impl;
import dev.troupe.bench.savina.PekkoForkJoinCreate;
import dev.troupe.bench.savina.SavinaDriver;
import dev.troupe.bench.savina.TroupeForkJoinCreate;
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
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ForkJoinCreate {
  /** Actors created per invocation (Savina N, scaled up 2x). */
  public static final int ACTORS = 80_000;

  /** troupe | pekko | pekko-tuned (see {@link Impl}). */
  @Param({"troupe", "pekko", "pekko-tuned"})
  public String impl;

  private SavinaDriver driver;

  @Setup(Level.Trial)
  public void setup() {
    Impl i = Impl.of(impl);
    driver = i == Impl.TROUPE ? new TroupeForkJoinCreate() : new PekkoForkJoinCreate(i);
    driver.setup(0);
  }

  @Benchmark
  @OperationsPerInvocation(ACTORS)
  public void createActors() {
    driver.runIteration(ACTORS);
  }

  @TearDown(Level.Trial)
  public void teardown() {
    if (driver != null) {
      driver.teardown();
    }
  }
}
