package dev.troupe.bench;

import dev.troupe.bench.common.Cpu;
import dev.troupe.bench.common.RoundTrips;
import dev.troupe.bench.latency.LatencyDriver;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Round-trip latency of one message in flight between two actors, and the CPU it costs.
 *
 * <p>One pinger/ponger pair on {@code bench-dispatcher}; the pinger sends the next ping only when
 * the pong came back, stamping each ping with {@link System#nanoTime()} and recording the round
 * trip into an HdrHistogram. Each invocation is {@value #ROUND_TRIPS} round trips. The
 * implementations ({@code impl}) are:
 *
 * <ul>
 *   <li>{@code troupe-idle1}, {@code troupe-idle5}, {@code troupe-idle10}: Troupe on the affinity
 *       pool with {@code affinity-pool-executor.idle-cpu-level} = 1, 5, 10 (save CPU .. lowest
 *       latency);
 *   <li>{@code troupe-tracing}: {@code troupe-idle5} with OpenTelemetry tracing installed and no
 *       span current (not in the default list: {@code -p impl=troupe-idle5,troupe-tracing});
 *   <li>{@code troupe-spin}: Troupe with {@code affinity-pool-executor.idle-strategy = busy-spin}
 *       (idle workers never park), the floor that level 10 is compared with;
 *   <li>{@code pekko}, {@code pekko-tuned}: as everywhere (Pekko defaults; fork-join with one
 *       thread per core).
 * </ul>
 *
 * <p>The primary score is round trips/s. Secondary scores (JMH aux counters, per measurement
 * iteration): {@code p50Us}, {@code p90Us}, {@code p99Us}, {@code p999Us}, {@code maxUs} (round
 * trip in microseconds), {@code cpuNsPerRoundTrip} (CPU time of the system's own threads, found by
 * the thread-name prefix {@code <system>-}, per round trip; this includes idle spinning, which is
 * the point), and {@code processCpuNsPerRoundTrip} (CPU of the whole JVM per round trip, including
 * JIT and GC). A percentile table over all measurement iterations is also printed at the end of
 * each trial.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar RoundTripLatency -f 2 -wi 3 -i 5 -r 1s} (one
 * idle level: {@code -p impl=troupe-idle5,pekko})
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RoundTripLatency {
  /** Sequential round trips per invocation. */
  public static final int ROUND_TRIPS = 20_000;

  /** Implementation and, for Troupe, its idle CPU level. */
  @Param({"troupe-idle1", "troupe-idle5", "troupe-idle10", "troupe-spin", "pekko", "pekko-tuned"})
  public String impl;

  private LatencyDriver driver;
  private final Histogram iteration = RoundTrips.newHistogram();
  private final Histogram measured = RoundTrips.newHistogram();
  private long systemCpu;
  private long processCpu;
  private long roundTrips;


  /** Latency and CPU of the current iteration, as JMH secondary results. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Latencies {
    public double p50Us;
    public double p90Us;
    public double p99Us;
    public double p999Us;
    public double maxUs;
    public double cpuNsPerRoundTrip;
    public double processCpuNsPerRoundTrip;
  }

  @Setup(Level.Trial)
  public void setup() {
    driver = LatencyDriver.create(impl);
    driver.setup();
  }

  @Setup(Level.Iteration)
  public void startIteration() {
    iteration.reset();
    systemCpu = 0;
    processCpu = 0;
    roundTrips = 0;
  }

  @Benchmark
  @OperationsPerInvocation(ROUND_TRIPS)
  public void roundTrip(Latencies out) {
    long sys0 = Cpu.systemThreadsNanos(driver.systemName());
    long proc0 = Cpu.processNanos();
    driver.runIteration(ROUND_TRIPS, iteration);
    long proc1 = Cpu.processNanos();
    long sys1 = Cpu.systemThreadsNanos(driver.systemName());
    systemCpu += sys1 - sys0;
    processCpu += proc1 - proc0;
    roundTrips += ROUND_TRIPS;
    out.p50Us = RoundTrips.us(iteration.getValueAtPercentile(50));
    out.p90Us = RoundTrips.us(iteration.getValueAtPercentile(90));
    out.p99Us = RoundTrips.us(iteration.getValueAtPercentile(99));
    out.p999Us = RoundTrips.us(iteration.getValueAtPercentile(99.9));
    out.maxUs = RoundTrips.us(iteration.getMaxValue());
    out.cpuNsPerRoundTrip = (double) systemCpu / roundTrips;
    out.processCpuNsPerRoundTrip = (double) processCpu / roundTrips;
  }

  @TearDown(Level.Iteration)
  public void endIteration(IterationParams params) {
    if (params.getType() == IterationType.MEASUREMENT) {
      measured.add(iteration);
    }
  }

  @TearDown(Level.Trial)
  public void teardown() {
    try {
      if (measured.getTotalCount() > 0) {
        System.out.printf(
            "%n%s round trip (us, %d samples): %s%n",
            impl, measured.getTotalCount(), RoundTrips.percentiles(measured));
      }
    } finally {
      if (driver != null) {
        driver.teardown();
      }
    }
  }
}
