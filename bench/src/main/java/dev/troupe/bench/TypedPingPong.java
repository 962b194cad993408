package dev.troupe.bench;

import dev.troupe.bench.pingpong.PingPongDriver;
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
 * Typed against classic Troupe and against Pekko Typed in one run: {@link PingPongThroughput}'s
 * pairs, dispatcher and counting, with the actors written as typed behaviours ({@code
 * impl=troupe-typed}), as classic actors ({@code impl=troupe}) or as Pekko Typed behaviours on
 * Pekko's default dispatcher settings ({@code impl=pekko-typed}); the score is messages/s. The
 * ratio typed / classic of each cell is what the typed layer costs per message (goal: at least
 * 0.9), typed Troupe / Pekko Typed what a user moving from Pekko Typed gains (goal: at least 3).
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar TypedPingPong -f 2 -wi 3 -i 5 -r 1s}; a
 * smoke run: {@code -f 1 -wi 0 -i 1 -p pairs=1 -p throughput=5 -p inFlight=1}. Results of this
 * session: {@code bench/README.md}, "Typed actors".
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TypedPingPong {
  /** troupe (classic actors) | troupe-typed (behaviours) | pekko-typed (Pekko Typed behaviours). */
  @Param({"troupe", "troupe-typed", "pekko-typed"})
  public String impl;

  /** Pinger/ponger pairs; must divide {@value PingPongThroughput#ROUND_TRIPS}. */
  @Param({"1", "4", "64"})
  public int pairs;

  /** The dispatcher's throughput. */
  @Param({"5", "100"})
  public int throughput;

  /** Pings outstanding per pair. */
  @Param({"1", "10"})
  public int inFlight;

  private PingPongDriver driver;

  @Setup(Level.Trial)
  public void setup() {
    if (pairs < 1 || PingPongThroughput.ROUND_TRIPS % pairs != 0) {
      throw new IllegalArgumentException("pairs must divide " + PingPongThroughput.ROUND_TRIPS + ", was " + pairs);
    }
    driver = PingPongDriver.create(impl);
    driver.setup(pairs, throughput, inFlight);
  }

  @Benchmark
  @OperationsPerInvocation(PingPongThroughput.MESSAGES)
  public void pingPong() {
    driver.runIteration(PingPongThroughput.ROUND_TRIPS / pairs);
  }

  @TearDown(Level.Trial)
  public void teardown() {
    if (driver != null) {
      driver.teardown();
    }
  }
}
