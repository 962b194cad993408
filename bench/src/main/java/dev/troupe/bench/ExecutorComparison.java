package dev.troupe.bench;

import dev.troupe.bench.common.Cpu;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.executors.ExecutorKind;
import dev.troupe.bench.executors.QueryServiceDriver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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

/**
 * Queries per second of query/service actor pairs, per executor family and dispatcher throughput.
 *
 * <p>{@value #PAIRS} pairs: a query actor sends a query, the service actor looks the key up in its
 * {@code HashMap<Integer, Integer>} and replies, the query actor checks the answer and sends the
 * next one. One invocation is {@code queriesPerPair} queries per pair (default 400,000, i.e. 1.6 M
 * queries and 3.2 M messages). Both frameworks run the chosen {@code executor} ({@code affinity} =
 * {@code affinity-pool-executor}, {@code fork-join}, {@code thread-pool}) with {@code threads}
 * threads, 2 by default as in the original comparison ("Pekko, 2 threads each"); {@code
 * pekko-tuned} differs from {@code pekko} only in using one thread per available processor, so on
 * a 2-core machine the two are the same run.
 *
 * <p>The score to read is the secondary result {@code queries} (queries/s); the primary score is
 * invocations/s, since the batch size is a parameter. {@code cpuNsPerQuery} and {@code
 * busyThreads} (see {@link CpuUse}) tell a cheaper query from threads kept busier.
 *
 * <p>Forks and iterations differ more than the code does: the rate of two threads changes at
 * young collections, as the collector copies long-lived objects into a new order. When an object
 * that one thread writes on every message lands on a cache line that the other thread reads on
 * every message, both slow down by up to half (two independent single-threaded processes on the
 * same two cores do not; {@code -XX:ObjectAlignmentInBytes=128} removes most of the slow phases).
 * The runtime's shared objects (dispatcher, pool, workers) are padded against this; the actors'
 * own objects are not (padding would cost every idle actor 256 bytes), so fork-join and affinity
 * forks still spread. Compare executors over 4 or more forks, and read the per-fork means in the
 * JMH log before the averaged score. Two bounds frame a comparison on a small machine: {@code -p
 * threads=1} (the hand-off alone) times the thread count is what perfect scaling would give, and
 * {@code -p systems=2} (one thread per system, nothing shared but the JVM) is what scaling without
 * any executor-level sharing gives. (Whole forks at 4-6 M queries/s, about one in six before, were
 * a JIT effect, now fixed: a worker frame kept running compiled code the JIT had thrown away, and
 * entered the interpreter on every task; see {@code AffinityWorker#loop}.)
 *
 * <p>Run (the annotations' defaults: 4 forks, 3 + 3 iterations of 1 s): {@code java -jar
 * bench/target/benchmarks.jar ExecutorComparison -p impl=troupe,pekko} (quicker: {@code -p
 * queriesPerPair=100000})
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 4,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
public class ExecutorComparison {
  /** Query/service pairs. */
  public static final int PAIRS = 4;

  /** troupe | pekko | pekko-tuned (see {@link Impl}; here pekko-tuned only changes the size). */
  @Param({"troupe", "pekko", "pekko-tuned"})
  public String impl;

  /** affinity | fork-join | thread-pool, on both frameworks. */
  @Param({"affinity", "fork-join", "thread-pool"})
  public String executor;

  /** The dispatcher's throughput. */
  @Param({"1", "5", "20", "100"})
  public int throughput;

  /** Queries per pair per invocation. */
  @Param({"400000"})
  public int queriesPerPair;

  /**
   * Threads per executor for {@code troupe} and {@code pekko} (2, as in the original comparison;
   * 1 shows what the hand-off alone costs, with no second thread to keep busy).
   */
  @Param({"2"})
  public int threads;

  /**
   * Actor systems that the pairs and threads are split over, run at the same time in this JVM (1,
   * the comparison itself). With {@code -p threads=2 -p systems=2} each system has one thread and
   * two pairs: what two threads cost each other by sharing a JVM (heap, collector) without
   * sharing an executor, to compare with one system on two threads.
   */
  @Param({"1"})
  public int systems;

  private QueryServiceDriver[] drivers;
  /** Runs the invocations of systems 1.. while the benchmark thread runs system 0's; null if one. */
  private ExecutorService others;
  private long systemCpu;
  private long wall;
  private long queries;

  /** Queries completed, normalized by JMH to queries/s. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Queries {
    public long queries;

    @Setup(Level.Iteration)
    public void reset() {
      queries = 0;
    }
  }

  /**
   * CPU of the current iteration, as JMH secondary results: {@code cpuNsPerQuery}, the actor
   * system's threads' CPU time per query (the cost of a query whether or not the threads were kept
   * busy), and {@code busyThreads}, that CPU time over the wall time of the invocations (how many
   * of the executor's threads were running on average; at most {@code threads} plus the odd
   * housekeeping thread). Both are per-iteration values; JMH's console line for an event counter
   * is their sum over the iterations (divide by the iteration count), the JSON's {@code rawData}
   * has each one, and {@code bench/report.sh} averages those.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class CpuUse {
    public double cpuNsPerQuery;
    public double busyThreads;
  }

  @Setup(Level.Iteration)
  public void startIteration() {
    systemCpu = 0;
    wall = 0;
    queries = 0;
  }

  @Setup(Level.Trial)
  public void setup() {
    if (queriesPerPair < 1 || threads < 1 || systems < 1) {
      throw new IllegalArgumentException("queriesPerPair, threads and systems must be >= 1");
    }
    Impl i = Impl.of(impl);
    int n = i == Impl.PEKKO_TUNED ? Runtime.getRuntime().availableProcessors() : threads;
    if (PAIRS % systems != 0 || n % systems != 0) {
      throw new IllegalArgumentException(
          "systems must divide the " + PAIRS + " pairs and the " + n + " threads, was " + systems);
    }
    drivers = new QueryServiceDriver[systems];
    for (int k = 0; k < systems; k++) {
      drivers[k] = QueryServiceDriver.create(i);
      drivers[k].setup(ExecutorKind.of(executor), n / systems, throughput, PAIRS / systems);
    }
    if (systems > 1) {
      others =
          Executors.newFixedThreadPool(
              systems - 1,
              r -> {
                Thread t = new Thread(r, "executor-comparison-driver");
                t.setDaemon(true);
                return t;
              });
    }
  }

  @Benchmark
  public void queries(Queries counter, CpuUse cpu) throws Exception {
    long sys0 = systemsCpu();
    long t0 = System.nanoTime();
    runAll();
    long t1 = System.nanoTime();
    long sys1 = systemsCpu();
    long n = (long) PAIRS * queriesPerPair;
    counter.queries += n;
    systemCpu += sys1 - sys0;
    wall += t1 - t0;
    queries += n;
    cpu.cpuNsPerQuery = (double) systemCpu / queries;
    cpu.busyThreads = (double) systemCpu / wall;
  }

  /** One invocation of every system, all at once; the benchmark thread runs system 0's. */
  private void runAll() throws Exception {
    List<Future<?>> running = new ArrayList<>(systems - 1);
    for (int k = 1; k < systems; k++) {
      QueryServiceDriver d = drivers[k];
      running.add(others.submit(() -> d.runIteration(queriesPerPair)));
    }
    drivers[0].runIteration(queriesPerPair);
    for (Future<?> f : running) {
      try {
        f.get(); // bounded: an invocation fails itself after Completion.TIMEOUT_SECONDS
      } catch (ExecutionException e) {
        throw new IllegalStateException("a system's invocation failed", e.getCause());
      }
    }
  }

  private long systemsCpu() {
    long sum = 0;
    for (QueryServiceDriver d : drivers) {
      sum += Cpu.systemThreadsNanos(d.systemName());
    }
    return sum;
  }

  @TearDown(Level.Trial)
  public void teardown() {
    if (others != null) {
      others.shutdownNow();
    }
    if (drivers != null) {
      for (QueryServiceDriver d : drivers) {
        if (d != null) {
          d.teardown();
        }
      }
    }
  }
}
