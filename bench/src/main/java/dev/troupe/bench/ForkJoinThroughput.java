package dev.troupe.bench;

import dev.troupe.bench.common.Impl;
import dev.troupe.bench.savina.PekkoForkJoinThroughput;
import dev.troupe.bench.savina.SavinaBenchmark;
import dev.troupe.bench.savina.SavinaDriver;
import dev.troupe.bench.savina.TroupeForkJoinThroughput;
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
 * Savina "Fork Join (throughput)" ({@code fjthr}): the benchmark thread sends {@value #MESSAGES}
 * messages to each of {@value #ACTORS} actors (round robin over the actors, as Savina does); each
 * message makes its actor compute sin²(37.2); each actor completes when it processed its share.
 * Score: messages per second. Measures external-sender enqueue plus dispatch of many busy actors.
 *
 * <p>Sizes: Savina's 60 actors; {@value #MESSAGES} messages each instead of Savina's 10,000, so one
 * invocation takes 0.2 s or more on the faster side.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ForkJoinThroughput -f 2 -wi 3 -i 5 -r 1s}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ForkJoinThroughput extends SavinaBenchmark {
  /** Actors (Savina A). */
  public static final int ACTORS = 60;

  /** Messages per actor per invocation (Savina N, scaled up 5x). */
  public static final int MESSAGES = 50_000;

  @Override
  protected SavinaDriver troupe() {
    return new TroupeForkJoinThroughput();
  }

  @Override
  protected SavinaDriver pekko(Impl pekko) {
    return new PekkoForkJoinThroughput(pekko);
  }

  @Override
  protected int setupSize() {
    return ACTORS;
  }

  @Benchmark
  @OperationsPerInvocation((ACTORS * MESSAGES))
  public void messages() {
    driver.runIteration(MESSAGES);
  }
}
