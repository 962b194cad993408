package dev.troupe.bench;

import dev.troupe.bench.common.Impl;
import dev.troupe.bench.savina.PekkoCounting;
import dev.troupe.bench.savina.SavinaBenchmark;
import dev.troupe.bench.savina.SavinaDriver;
import dev.troupe.bench.savina.TroupeCounting;
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
 * Savina "Counting Actor" ({@code count}): one producer sends {@value #INCREMENTS} increment
 * messages to a counter actor, then asks it for its count; the counter replies with the count,
 * which the producer checks. Score: increments (messages) per second. As in Savina, the producer
 * sends all messages from one handler without flow control, so this measures the raw enqueue and
 * dequeue cost of one mailbox under a single producer.
 *
 * <p>Size: N = {@value #INCREMENTS} instead of Savina's 1,000,000, so one invocation takes 0.2 s or
 * more on the faster side.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar Counting -f 2 -wi 3 -i 5 -r 1s}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class Counting extends SavinaBenchmark {
  /** Increments per invocation (Savina N, scaled up 5x). */
  public static final int INCREMENTS = 5_000_000;

  @Override
  protected SavinaDriver troupe() {
    return new TroupeCounting();
  }

  @Override
  protected SavinaDriver pekko(Impl pekko) {
    return new PekkoCounting(pekko);
  }

  @Override
  protected int setupSize() {
    return 0;
  }

  @Benchmark
  @OperationsPerInvocation(INCREMENTS)
  public void count() {
    driver.runIteration(INCREMENTS);
  }
}
