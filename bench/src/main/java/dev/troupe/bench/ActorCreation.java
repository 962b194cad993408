package dev.troupe.bench;

import dev.troupe.bench.common.Heap;
import dev.troupe.bench.creation.CreationDriver;
import java.util.concurrent.TimeUnit;
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

/**
 * Actors created and started per second, and retained heap per idle actor.
 *
 * <p>{@code create10k} / {@code create100k}: a fresh parent creates 10,000 / 100,000 children; each
 * child tells the parent "started" from {@code preStart}; the invocation ends when the parent has
 * counted them all. Score: actors/s (created and started). The parent and its children are stopped
 * after each invocation, outside the measured time (an invocation-level teardown, which JMH
 * excludes from the score).
 *
 * <p>{@code retainedHeapPerIdleActor} (single shot): full GCs, used heap; create {@code idleActors}
 * (default 1,000,000) started, idle children; full GCs, used heap again. The secondary result
 * {@code bytesPerActor} is the difference divided by the actor count (it includes each actor's
 * share of its parent's children container); the primary score is the time the single shot took.
 * The forked JVM gets a fixed 4 GB heap so the numbers are comparable.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ActorCreation -f 2 -wi 3 -i 5 -r 1s}; heap
 * only: {@code java -jar bench/target/benchmarks.jar 'ActorCreation.retainedHeap' -f 1 -wi 1 -i 3}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ActorCreation {

  /**
   * troupe | troupe-typed (the same actors as typed behaviours) | pekko | pekko-tuned (see {@link
   * dev.troupe.bench.common.Impl}).
   */
  @Param({"troupe", "troupe-typed", "pekko", "pekko-tuned"})
  public String impl;

  private CreationDriver driver;

  /** How many idle actors the heap measurement creates. */
  @State(Scope.Benchmark)
  public static class HeapParams {
    @Param({"1000000"})
    public int idleActors;
  }

  /** Retained heap per idle actor, as a JMH secondary result. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Retained {
    public double bytesPerActor;
  }

  @Setup(Level.Trial)
  public void setup() {
    driver = CreationDriver.create(impl);
    driver.setup();
  }

  @Benchmark
  @OperationsPerInvocation(10_000)
  public void create10k() {
    driver.spawn(10_000);
  }

  @Benchmark
  @OperationsPerInvocation(100_000)
  public void create100k() {
    driver.spawn(100_000);
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 1)
  @Measurement(iterations = 3)
  public void retainedHeapPerIdleActor(HeapParams params, Retained out) {
    driver.stopParent();
    long before = Heap.usedAfterGc();
    driver.spawn(params.idleActors);
    long after = Heap.usedAfterGc();
    out.bytesPerActor = (double) (after - before) / params.idleActors;
    System.out.printf(
        "%n%s: %.1f bytes retained per idle actor (%d actors)%n",
        impl, out.bytesPerActor, params.idleActors);
  }

  @TearDown(Level.Invocation)
  public void stopChildren() {
    driver.stopParent();
  }

  @TearDown(Level.Trial)
  public void teardown() {
    if (driver != null) {
      driver.teardown();
    }
  }
}
