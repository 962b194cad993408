package dev.troupe.bench;

import dev.troupe.bench.common.Cpu;
import dev.troupe.bench.latency.LatencyDriver;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
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
 * How fast an idle system stops burning CPU: after a burst of work, the CPU time of the actor
 * system's threads (and of the whole process) over fixed windows, in percent of one core.
 *
 * <p>Each invocation runs a burst of {@value #BURST} round trips between one pinger/ponger pair
 * (the {@code RoundTripLatency} actors, on the affinity pool), then watches the idle system: window
 * A is the first {@value #SETTLE_MS} ms after the burst ends (spinning and yielding before parking
 * are expected here), window B the {@value #WINDOW_MS} ms after that, which must stay below 2% of
 * one core at the default {@code idle-cpu-level} (5). Window B is long because the process CPU
 * time the OS reports moves in 10 ms ticks: over one second that is a 1% resolution. The harness thread sleeps through the
 * windows: the sleep is the observation period, nothing waits on it.
 *
 * <p>Secondary results (per iteration, the last invocation): {@code systemPctFirst50ms},
 * {@code systemPctAfter50ms} (the system's threads, found by the {@code <system>-} name prefix,
 * via {@code ThreadMXBean}), {@code processPctAfter50ms} (the whole JVM, including JIT and GC). At
 * the end of each trial the worst window B over all measurement iterations is printed.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar IdleCpu -f 2 -wi 3 -i 10}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3)
@Measurement(iterations = 10)
public class IdleCpu {
  /** Round trips per burst. */
  public static final int BURST = 20_000;

  /** Window A: the settling period right after the burst. */
  public static final long SETTLE_MS = 50;

  /** Window B: the idle period after the settling period. */
  public static final long WINDOW_MS = 1000;

  /** {@code troupe-idle<level>} or {@code troupe-spin} (see {@code RoundTripLatency}). */
  @Param({"troupe-idle1", "troupe-idle5", "troupe-idle10"})
  public String impl;

  private LatencyDriver driver;
  private final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 2);
  private double lastSystemPct;
  private double lastProcessPct;
  private double worstSystemPct;
  private double worstProcessPct;

  /** CPU in percent of one core, per window, as JMH secondary results. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Windows {
    public double systemPctFirst50ms;
    public double systemPctAfter50ms;
    public double processPctAfter50ms;
  }

  @Setup(Level.Trial)
  public void setup() {
    driver = LatencyDriver.create(impl);
    driver.setup();
  }

  @Benchmark
  public void burstThenIdle(Windows out) {
    histogram.reset();
    driver.runIteration(BURST, histogram);
    String name = driver.systemName();
    long t0 = System.nanoTime();
    long sys0 = Cpu.systemThreadsNanos(name);
    sleepUntil(t0 + TimeUnit.MILLISECONDS.toNanos(SETTLE_MS));
    long t1 = System.nanoTime();
    long sys1 = Cpu.systemThreadsNanos(name);
    long proc1 = Cpu.processNanos();
    sleepUntil(t1 + TimeUnit.MILLISECONDS.toNanos(WINDOW_MS));
    long t2 = System.nanoTime();
    long proc2 = Cpu.processNanos();
    long sys2 = Cpu.systemThreadsNanos(name);
    out.systemPctFirst50ms = pct(sys1 - sys0, t1 - t0);
    out.systemPctAfter50ms = lastSystemPct = pct(sys2 - sys1, t2 - t1);
    out.processPctAfter50ms = lastProcessPct = pct(proc2 - proc1, t2 - t1);
  }

  private static double pct(long cpuNanos, long wallNanos) {
    return 100.0 * cpuNanos / wallNanos;
  }

  private static void sleepUntil(long deadline) {
    long left;
    while ((left = deadline - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left); // the observation window itself
    }
  }

  @TearDown(Level.Iteration)
  public void endIteration(IterationParams params) {
    if (params.getType() == IterationType.MEASUREMENT) {
      worstSystemPct = Math.max(worstSystemPct, lastSystemPct);
      worstProcessPct = Math.max(worstProcessPct, lastProcessPct);
    }
  }

  @TearDown(Level.Trial)
  public void teardown() {
    try {
      System.out.printf(
          "%n%s idle CPU %d-%d ms after a burst, worst of the measured iterations: system threads"
              + " %.2f%% of one core, whole process %.2f%%%n",
          impl, SETTLE_MS, SETTLE_MS + WINDOW_MS, worstSystemPct, worstProcessPct);
    } finally {
      if (driver != null) {
        driver.teardown();
      }
    }
  }
}
