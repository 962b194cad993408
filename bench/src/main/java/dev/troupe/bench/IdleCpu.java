package dev.troupe.bench;

import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.ThreadTimes;
import dev.troupe.bench.idle.IdleEngine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
 * What an idle actor system costs, per thread, against the bare JVM: Troupe at {@code
 * idle-cpu-level} 1, 5 and 10 (and 5 with 16 workers, {@code parallelism-min = 16}, more than the
 * cores), Pekko on its defaults, and {@code bare} (the same fork with no system) in one run.
 *
 * <p>Measured from Linux's {@code /proc/self/task/<tid>/schedstat} (see {@link ThreadTimes}): CPU
 * time and the number of times each thread was scheduled (its wake-ups), for the system's threads
 * (found by the {@code <system>-} prefix of their names) and for the whole process (JIT, GC and
 * VM threads included). Percentages are of one core. "Over the bare JVM" is a subject's process
 * figure minus {@code bare}'s, read off the same run. The harness thread sleeps through each
 * window; the sleep is the observation period, nothing waits on it.
 *
 * <ul>
 *   <li>{@link #steady}: a system created and never used (no actor, no message), over windows of
 *       {@value #STEADY_MS} ms; the warm-up iteration absorbs the start-up.
 *   <li>{@link #afterBurst}: a burst of {@value #BURST} round trips between a pinger and a ponger on
 *       the default dispatcher, then the windows 0–1 s, 1–5 s and 5–15 s after it; at the end, how
 *       long the first message after those 15 s of silence waits to be picked up (from the send on
 *       the harness thread to the start of the actor's processing).
 *   <li>{@link #pickupAfterPause}: the same pickup after shorter pauses ({@code pauseMicros}), what
 *       an {@code idle-cpu-level} buys: a message that comes while its worker still spins is
 *       picked up without an OS wake-up.
 * </ul>
 *
 * <p>At the end of each trial the per-thread figures of the measured iterations are printed.
 * Secondary results are per invocation (one per iteration); note that JMH adds such {@code EVENTS}
 * counters up over the measured iterations of all forks, so the score of a secondary result in
 * the summary table is its mean times the sample count ({@code Cnt}): read the per-iteration
 * lines, or divide. {@code bench/results/notes/idle.md} has the tables made that way.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar IdleCpu -f 2} (all of it, about 20 min on 2
 * cores; {@code IdleCpu.steady} alone about 4 min, {@code IdleCpu.afterBurst} about 10).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
public class IdleCpu {
  /** Round trips per burst. */
  public static final int BURST = 20_000;

  /** One window of the steady case. */
  public static final long STEADY_MS = 5_000;

  /** Ends of the windows after a burst, in ms from its end. */
  static final long[] WINDOW_ENDS_MS = {1_000, 5_000, 15_000};

  static final String[] WINDOW_NAMES = {"0-1 s", "1-5 s", "5-15 s"};

  /** A system (or none) with nothing on it: the subject of {@link #steady}. */
  @State(Scope.Benchmark)
  public static class Quiet extends Side {
    @Param({"bare", "troupe-1", "troupe-5", "troupe-10", "troupe-5-16w", "pekko"})
    public String subject;

    @Setup(Level.Trial)
    public void setup() {
      start(subject, false);
    }

    @TearDown(Level.Iteration)
    public void endIteration(IterationParams params) {
      keep(params);
    }

    @TearDown(Level.Trial)
    public void teardown() {
      finish("steady, a system created and never used, " + STEADY_MS + " ms windows");
    }
  }

  /** A system with a pinger/ponger pair: the subject of {@link #afterBurst}. */
  @State(Scope.Benchmark)
  public static class Bursty extends Side {
    @Param({"bare", "troupe-1", "troupe-5", "troupe-10", "troupe-5-16w", "pekko"})
    public String subject;

    @Setup(Level.Trial)
    public void setup() {
      start(subject, true);
    }

    @TearDown(Level.Iteration)
    public void endIteration(IterationParams params) {
      keep(params);
    }

    @TearDown(Level.Trial)
    public void teardown() {
      finish("after a burst of " + BURST + " round trips");
    }
  }

  /** A system with a stamp reader: the subject of {@link #pickupAfterPause}. */
  @State(Scope.Benchmark)
  public static class Paused extends Side {
    @Param({"troupe-1", "troupe-5", "troupe-10", "pekko"})
    public String subject;

    /** Pause on the sending thread between two messages. */
    @Param({"100", "1000", "100000"})
    public int pauseMicros;

    @Setup(Level.Trial)
    public void setup() {
      start(subject, true);
    }

    @TearDown(Level.Trial)
    public void teardown() {
      finish(null);
    }
  }

  /** CPU in percent of one core and wake-ups per second, as JMH secondary results. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class SteadyOut {
    public double systemPct;
    public double systemWakeupsPerS;
    public double processPct;
  }

  /** Per window after the burst; and the pickup after the last one. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class BurstOut {
    public double systemPct0to1s;
    public double systemPct1to5s;
    public double systemPct5to15s;
    public double systemWakeupsPerS0to1s;
    public double systemWakeupsPerS1to5s;
    public double systemWakeupsPerS5to15s;
    public double processPct0to1s;
    public double processPct1to5s;
    public double processPct5to15s;
    public double pickupUsAfter15s;
  }

  /** Pickup after the pause, over the invocation's messages. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class PickupOut {
    public double pickupUsP50;
    public double pickupUsMean;
    public double pickupUsMax;
  }

  @Benchmark
  @Warmup(iterations = 1)
  @Measurement(iterations = 2)
  public void steady(Quiet side, SteadyOut out) {
    Window w = side.window("steady", STEADY_MS);
    out.systemPct = w.systemPct;
    out.systemWakeupsPerS = w.systemWakeupsPerS;
    out.processPct = w.processPct;
  }

  @Benchmark
  @Warmup(iterations = 1)
  @Measurement(iterations = 2)
  public void afterBurst(Bursty side, BurstOut out) {
    side.engine.burst(BURST);
    long start = System.nanoTime();
    Window[] w = new Window[WINDOW_ENDS_MS.length];
    long from = 0;
    for (int i = 0; i < w.length; i++) {
      w[i] = side.window(WINDOW_NAMES[i], start, from, WINDOW_ENDS_MS[i]);
      from = WINDOW_ENDS_MS[i];
    }
    out.systemPct0to1s = w[0].systemPct;
    out.systemPct1to5s = w[1].systemPct;
    out.systemPct5to15s = w[2].systemPct;
    out.systemWakeupsPerS0to1s = w[0].systemWakeupsPerS;
    out.systemWakeupsPerS1to5s = w[1].systemWakeupsPerS;
    out.systemWakeupsPerS5to15s = w[2].systemWakeupsPerS;
    out.processPct0to1s = w[0].processPct;
    out.processPct1to5s = w[1].processPct;
    out.processPct5to15s = w[2].processPct;
    out.pickupUsAfter15s = side.engine.pickupNanos() / 1_000.0;
  }

  @Benchmark
  @Warmup(iterations = 1)
  @Measurement(iterations = 3)
  public void pickupAfterPause(Paused side, PickupOut out) {
    long pause = TimeUnit.MICROSECONDS.toNanos(side.pauseMicros);
    // About a second of pauses per invocation, at least 20 and at most 2,000 pickups.
    int n = (int) Math.max(20, Math.min(2_000, TimeUnit.SECONDS.toNanos(1) / pause));
    long[] pickups = new long[n];
    for (int i = 0; i < n; i++) {
      sleepUntil(System.nanoTime() + pause);
      pickups[i] = side.engine.pickupNanos();
    }
    Arrays.sort(pickups);
    long sum = 0;
    for (long p : pickups) {
      sum += p;
    }
    out.pickupUsP50 = pickups[n / 2] / 1_000.0;
    out.pickupUsMean = sum / (double) n / 1_000.0;
    out.pickupUsMax = pickups[n - 1] / 1_000.0;
  }

  static void sleepUntil(long deadline) {
    long left;
    while ((left = deadline - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left); // the observation window itself
    }
  }

  /** One observation window: the system's threads and the whole process. */
  static final class Window {
    double systemPct;
    double systemWakeupsPerS;
    double processPct;
  }

  /** What the three states share: the engine, and the per-thread figures of measured windows. */
  abstract static class Side {
    IdleEngine engine;
    String subject;
    String systemPrefix;
    /** Per window name, per thread name: CPU ns, runs and window ns of the last invocation. */
    private final Map<String, Map<String, long[]>> last = new TreeMap<>();
    /** The same, summed over the measured iterations. */
    private final Map<String, Map<String, long[]>> kept = new TreeMap<>();

    void start(String subject, boolean withActors) {
      if (!ThreadTimes.available()) {
        throw new IllegalStateException("IdleCpu reads /proc/self/task: Linux only");
      }
      this.subject = subject;
      String name = Names.unique("i");
      systemPrefix = name + "-";
      engine = IdleEngine.create(subject);
      engine.start(name);
      if (withActors) {
        engine.createActors();
      }
    }

    /** A window of {@code ms} from now. */
    Window window(String label, long ms) {
      long start = System.nanoTime();
      return window(label, start, 0, ms);
    }

    /** The window from {@code fromMs} to {@code toMs} after {@code start}. */
    Window window(String label, long start, long fromMs, long toMs) {
      Map<Integer, ThreadTimes.Sample> before = ThreadTimes.snapshot();
      long t0 = System.nanoTime();
      sleepUntil(start + TimeUnit.MILLISECONDS.toNanos(toMs));
      Map<Integer, ThreadTimes.Sample> after = ThreadTimes.snapshot();
      long wall = System.nanoTime() - t0;
      Window w = new Window();
      long systemCpu = 0;
      long systemRuns = 0;
      long processCpu = 0;
      Map<String, long[]> threads = new TreeMap<>();
      for (ThreadTimes.Delta d : ThreadTimes.between(before, after)) {
        processCpu += d.cpuNanos();
        boolean ours = d.name().startsWith(systemPrefix);
        if (ours) {
          systemCpu += d.cpuNanos();
          systemRuns += d.runs();
        }
        if (ours || d.cpuNanos() > 0) {
          // Native names are cut to 15 characters, so the workers of a system share one: the
          // system's threads are told apart by their native ids (in creation order).
          String key = ours ? "system " + d.name() + " #" + d.tid() : "jvm    " + d.name();
          long[] sum = threads.computeIfAbsent(key, k -> new long[3]);
          sum[0] += d.cpuNanos();
          sum[1] += d.runs();
          sum[2] = wall;
        }
      }
      w.systemPct = 100.0 * systemCpu / wall;
      w.systemWakeupsPerS = systemRuns * 1e9 / wall;
      w.processPct = 100.0 * processCpu / wall;
      last.put(label, threads);
      return w;
    }

    void keep(IterationParams params) {
      if (params.getType() != IterationType.MEASUREMENT) {
        return;
      }
      for (Map.Entry<String, Map<String, long[]>> e : last.entrySet()) {
        Map<String, long[]> into = kept.computeIfAbsent(e.getKey(), k -> new TreeMap<>());
        for (Map.Entry<String, long[]> t : e.getValue().entrySet()) {
          long[] sum = into.computeIfAbsent(t.getKey(), k -> new long[3]);
          long[] v = t.getValue();
          sum[0] += v[0];
          sum[1] += v[1];
          sum[2] += v[2];
        }
      }
    }

    /** Prints the per-thread figures (if {@code what} is given) and stops the engine. */
    void finish(String what) {
      try {
        if (what != null) {
          print(what);
        }
      } finally {
        engine.stop();
      }
    }

    private void print(String what) {
      StringBuilder b = new StringBuilder();
      b.append(String.format("%n%s, %s: per thread over the measured iterations"
          + " (%% of one core, wake-ups per second)%n", subject, what));
      for (Map.Entry<String, Map<String, long[]>> e : kept.entrySet()) {
        b.append("  window ").append(e.getKey()).append('\n');
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, long[]> t : e.getValue().entrySet()) {
          long[] v = t.getValue();
          if (v[2] == 0) {
            continue;
          }
          lines.add(String.format("    %-32s %8.4f %%  %9.1f /s",
              t.getKey(), 100.0 * v[0] / v[2], v[1] * 1e9 / v[2]));
        }
        lines.forEach(l -> b.append(l).append('\n'));
      }
      System.out.print(b);
    }
  }
}
