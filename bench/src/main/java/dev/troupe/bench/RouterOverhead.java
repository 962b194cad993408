package dev.troupe.bench;

import dev.troupe.bench.common.Impl;
import dev.troupe.bench.routing.RouterDriver;
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
 * The cost of sending through a router: a {@code RoundRobinPool(n)} ref versus a direct ref to one
 * actor, and a {@code BalancingPool(4)}.
 *
 * <p>The benchmark thread sends {@value #JOBS} allocation-free jobs per invocation to the target;
 * each routee (or the single direct actor) first gets an {@code Expect} with its share (through
 * {@code Broadcast} for a router) and completes after it. {@code target}: {@code direct} = one
 * actor; {@code pool-1} = a round-robin pool with one routee (same work as direct, so the
 * difference is the router's overhead); {@code pool-4} = four routees; {@code balancing-4} = a
 * balancing pool of four, whose routees share one queue (each job is one instance of a per-invocation
 * countdown, taken by whichever routee is free; Pekko's pool gets its {@code pool-dispatcher} from
 * the same settings as the routees' dispatcher). Score: jobs/s.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar RouterOverhead -f 2 -wi 3 -i 5 -r 1s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RouterOverhead {
  /** Jobs per invocation; divisible by every pool size used. */
  public static final int JOBS = 1 << 20;

  /** troupe | pekko | pekko-tuned (see {@link Impl}). */
  @Param({"troupe", "pekko", "pekko-tuned"})
  public String impl;

  /** direct | pool-1 | pool-4 | balancing-4 (pool-n: a RoundRobinPool of n routees). */
  @Param({"direct", "pool-1", "pool-4", "balancing-4"})
  public String target;

  private RouterDriver driver;

  @Setup(Level.Trial)
  public void setup() {
    int routees;
    boolean balancing = target.startsWith("balancing-");
    if (target.equals("direct")) {
      routees = 0;
    } else if (target.startsWith("pool-") || balancing) {
      routees = Integer.parseInt(target.substring(target.indexOf('-') + 1));
      if (routees < 1 || JOBS % routees != 0) {
        throw new IllegalArgumentException("pool size must divide " + JOBS + ": " + target);
      }
    } else {
      throw new IllegalArgumentException("target is direct, pool-<n> or balancing-<n>, was " + target);
    }
    driver = RouterDriver.create(Impl.of(impl));
    driver.setup(routees, balancing);
  }

  @Benchmark
  @OperationsPerInvocation(JOBS)
  public void send() {
    driver.runIteration(JOBS);
  }

  @TearDown(Level.Trial)
  public void teardown() {
    if (driver != null) {
      driver.teardown();
    }
  }
}
