package dev.troupe.bench;

import dev.troupe.bench.alone.Streams;
import dev.troupe.bench.executors.ExecutorKind;
import dev.troupe.executors.AffinityPool;
import dev.troupe.executors.ExecutorFactories;
import dev.troupe.executors.NamedThreadFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
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
 * Troupe's executors as plain {@link ExecutorService}s, no actors: tasks per second under a
 * balanced load, one long stream, and one overloaded stripe.
 *
 * <p>The load is {@value #STREAMS} mailbox-shaped streams (see {@link Streams}): each stream is one
 * {@code Runnable} that burns a few hundred nanoseconds of CPU and resubmits itself from the worker
 * thread until its tasks are done. {@code balanced}: every stream runs {@value #BALANCED_TASKS}
 * tasks ({@value #BALANCED_TOTAL} in all). {@code skewed}: stream 0 runs ten times as many as each
 * other stream ({@value #SKEW_TASKS} × 10 + 7 × {@value #SKEW_TASKS} = {@value #SKEWED_TOTAL}), so
 * an executor that pins a stream to a thread must still keep its other threads busy with the rest.
 * No executor can split one stream, so {@code skewed} ends with stream 0 alone and rewards the
 * order in which each thread ran its streams: run-to-completion (what a fork-join worker does with
 * its own resubmitted task) starts the long stream at once; round-robin between the streams of a
 * stripe (the affinity pool, fair to mailboxes) finishes the short ones first.
 *
 * <p>{@code overloadedStripe}: one stripe gets ten times the work. {@value #OVERLOAD_STREAMS}
 * streams of {@value #OVERLOAD_TASKS} tasks ({@value #OVERLOAD_TOTAL} in all), ten of them bound
 * to stripe 0 and one to stripe 1 before they are submitted, the way mailboxes that last ran on a
 * stripe come back to it; the affinity pool places them there and has to steal to balance, the
 * other executors ignore the binding.
 *
 * <p>{@code executor}: {@code affinity} = {@code dev.troupe.executors.AffinityPool} (striped
 * per-thread queues); {@code fork-join} = a FIFO {@code ForkJoinPool}; {@code thread-pool} = a
 * fixed {@code ThreadPoolExecutor}, the latter two built by {@code ExecutorFactories} as Troupe's
 * dispatchers build them. All with {@code threads} threads. There is no Pekko side: Pekko's
 * executors are not public standalone API.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ExecutorAlone -f 2 -wi 3 -i 5 -r 1s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ExecutorAlone {
  /** Concurrent streams. */
  public static final int STREAMS = 8;

  /** Tasks per stream, balanced load. */
  public static final int BALANCED_TASKS = 50_000;

  /** Tasks per invocation, balanced load. */
  public static final int BALANCED_TOTAL = STREAMS * BALANCED_TASKS;

  /** Tasks of each light stream, skewed load; stream 0 runs ten times as many. */
  public static final int SKEW_TASKS = 25_000;

  /** Tasks per invocation, skewed load. */
  public static final int SKEWED_TOTAL = (10 + STREAMS - 1) * SKEW_TASKS;

  /** Streams of the overloaded-stripe load: ten bound to stripe 0, one to stripe 1. */
  public static final int OVERLOAD_STREAMS = 11;

  /** Tasks per stream, overloaded-stripe load. */
  public static final int OVERLOAD_TASKS = 20_000;

  /** Tasks per invocation, overloaded-stripe load. */
  public static final int OVERLOAD_TOTAL = OVERLOAD_STREAMS * OVERLOAD_TASKS;

  /** affinity | fork-join | thread-pool. */
  @Param({"affinity", "fork-join", "thread-pool"})
  public String executor;

  /** Threads of the executor. */
  @Param({"2"})
  public int threads;

  private ExecutorService pool;
  private final int[] balanced = new int[STREAMS];
  private final int[] skewed = new int[STREAMS];
  private final int[] overload = new int[OVERLOAD_STREAMS];
  private final int[] overloadStripes = new int[OVERLOAD_STREAMS];

  @Setup(Level.Trial)
  public void setup() {
    Arrays.fill(balanced, BALANCED_TASKS);
    Arrays.fill(skewed, SKEW_TASKS);
    skewed[0] = 10 * SKEW_TASKS;
    Arrays.fill(overload, OVERLOAD_TASKS);
    overloadStripes[OVERLOAD_STREAMS - 1] = 1 % threads; // the rest stay 0
    pool =
        switch (ExecutorKind.of(executor)) {
          case AFFINITY -> AffinityPool.builder().parallelism(threads).build();
          case FORK_JOIN -> ExecutorFactories.forkJoin(threads, true, "bench-fj", true, null);
          case THREAD_POOL ->
              ExecutorFactories.threadPool(
                  threads,
                  threads,
                  Duration.ofSeconds(60),
                  0,
                  new NamedThreadFactory("bench-tp", true));
        };
  }

  @Benchmark
  @OperationsPerInvocation(BALANCED_TOTAL)
  public void balanced() {
    Streams.run(pool, balanced);
  }

  @Benchmark
  @OperationsPerInvocation(SKEWED_TOTAL)
  public void skewed() {
    Streams.run(pool, skewed);
  }

  @Benchmark
  @OperationsPerInvocation(OVERLOAD_TOTAL)
  public void overloadedStripe() {
    Streams.run(pool, overload, overloadStripes);
  }

  @TearDown(Level.Trial)
  public void teardown() throws InterruptedException {
    if (pool != null) {
      pool.shutdown();
      if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException(executor + " pool did not terminate");
      }
    }
  }
}
