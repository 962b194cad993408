package dev.troupe.bench;

import dev.troupe.bench.common.Impl;
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
 * Messages per second between pinger/ponger actor pairs.
 *
 * <p>{@code pairs} independent pairs share one dispatcher ({@code bench-dispatcher} with the given
 * {@code throughput}); each pinger keeps {@code inFlight} pings outstanding and sends the next ping
 * when a pong arrives. One invocation is {@value #ROUND_TRIPS} round trips split evenly over the
 * pairs, i.e. {@value #MESSAGES} messages (pings + pongs); the score is messages/s. The messages
 * are the same enum singletons on both sides, so no side allocates per message beyond its own
 * envelope.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar PingPongThroughput -f 2 -wi 3 -i 5 -r 1s -p
 * pairs=1,4 -p throughput=5,100 -p inFlight=10}
 *
 * <p>Telemetry overhead: {@code java -jar bench/target/benchmarks.jar PingPongThroughput -f 2 -wi 2
 * -i 3 -r 1s -p impl=troupe,troupe-telemetry -p pairs=1 -p throughput=5 -p inFlight=1,10}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PingPongThroughput {
  /** Round trips per invocation, all pairs together; divisible by every {@code pairs} value. */
  public static final int ROUND_TRIPS = 1 << 18;

  /** Messages per invocation: a ping and a pong per round trip. */
  public static final int MESSAGES = 2 * ROUND_TRIPS;

  /**
   * troupe | pekko | pekko-tuned (see {@link Impl}), or troupe-telemetry: Troupe with {@code
   * troupe.telemetry.enabled = on} (defaults otherwise: sampling 1 in 64, JMX on), to read the
   * telemetry's overhead against {@code troupe} in one run; not in the default list (name it with
   * {@code -p impl=troupe,troupe-telemetry}), so the default grid and report.sh are unchanged.
   * Likewise troupe-tracing (OpenTelemetry tracing installed, no span current), troupe-traced
   * (every message handled in a sampled span; the SDK exports nothing) and troupe-micrometer
   * (telemetry on and the Micrometer binder bound to a registry, all defaults).
   */
  @Param({"troupe", "pekko", "pekko-tuned"})
  public String impl;

  /** Pinger/ponger pairs; must divide {@value #ROUND_TRIPS}. */
  @Param({"1", "2", "4", "8", "64"})
  public int pairs;

  /** The dispatcher's throughput, on all implementations. */
  @Param({"1", "5", "20", "100", "200"})
  public int throughput;

  /** Pings outstanding per pair. */
  @Param({"1", "10"})
  public int inFlight;

  private PingPongDriver driver;

  @Setup(Level.Trial)
  public void setup() {
    if (pairs < 1 || ROUND_TRIPS % pairs != 0) {
      throw new IllegalArgumentException("pairs must divide " + ROUND_TRIPS + ", was " + pairs);
    }
    driver = PingPongDriver.create(impl);
    driver.setup(pairs, throughput, inFlight);
  }

  @Benchmark
  @OperationsPerInvocation(MESSAGES)
  public void pingPong() {
    driver.runIteration(ROUND_TRIPS / pairs);
  }

  @TearDown(Level.Trial)
  public void teardown() {
    if (driver != null) {
      driver.teardown();
    }
  }
}
