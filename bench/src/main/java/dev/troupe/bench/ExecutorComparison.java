package dev.troupe.bench;

import dev.troupe.bench.common.Impl;
import dev.troupe.bench.executors.ExecutorKind;
import dev.troupe.bench.executors.QueryServiceDriver;
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
 * {@code affinity-pool-executor}, {@code fork-join}, {@code thread-pool}) with 2 threads, as in the
 * original comparison ("Pekko, 2 threads each"); {@code pekko-tuned} differs from {@code pekko}
 * only in using one thread per available processor instead of 2, so on a 2-core machine the two are
 * the same run.
 *
 * <p>The score to read is the secondary result {@code queries} (queries/s); the primary score is
 * invocations/s, since the batch size is a parameter.
 *
 * <p>Forks and iterations differ more than the code does: the rate of two threads changes at
 * young collections, as the collector copies long-lived objects into a new order. When an object
 * that one thread writes on every message lands on a cache line that the other thread reads on
 * every message, both slow down by up to half (two independent single-threaded processes on the
 * same two cores do not; {@code -XX:ObjectAlignmentInBytes=128} removes most of the slow phases).
 * The runtime's shared objects (dispatcher, pool, workers) are padded against this; the actors'
 * own objects are not (padding would cost every idle actor 256 bytes), so fork-join and affinity
 * forks still spread. Compare executors over 4 or more forks, and read the per-fork means in the
 * JMH log before the averaged score. (Whole forks at 4-6 M queries/s, about one in six before, were
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

  /** Threads per executor for {@code troupe} and {@code pekko}. */
  public static final int THREADS = 2;

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

  private QueryServiceDriver driver;

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

  @Setup(Level.Trial)
  public void setup() {
    if (queriesPerPair < 1) {
      throw new IllegalArgumentException("queriesPerPair must be >= 1");
    }
    Impl i = Impl.of(impl);
    int threads = i == Impl.PEKKO_TUNED ? Runtime.getRuntime().availableProcessors() : THREADS;
    driver = QueryServiceDriver.create(i);
    driver.setup(ExecutorKind.of(executor), threads, throughput, PAIRS);
  }

  @Benchmark
  public void queries(Queries counter) {
    driver.runIteration(queriesPerPair);
    counter.queries += (long) PAIRS * queriesPerPair;
  }

  @TearDown(Level.Trial)
  public void teardown() {
    if (driver != null) {
      driver.teardown();
    }
  }
}
