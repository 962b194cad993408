package dev.troupe.bench;

import dev.troupe.bench.common.RemoteMessages;
import dev.troupe.bench.common.RoundTrips;
import dev.troupe.bench.sharding.ShardedPingPongDriver;
import java.util.concurrent.TimeUnit;
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
 * Messages per second and round-trip latency through cluster sharding: Troupe's {@code
 * ClusterSharding} beside Pekko Cluster Sharding (classic), each with its defaults.
 *
 * <p>Three cluster nodes of the chosen framework in this JVM (loopback, ephemeral ports; Troupe on
 * its default JGroups engine, Pekko over Artery TCP), each with a shard region of one entity type
 * over 100 shards. {@code pairs} pingers, spread over the three nodes (pinger {@code i} on node
 * {@code i % 3}), each keep {@code inFlight} pings outstanding to their own entity, sent through
 * their node's region; the cluster places the entities on all three nodes, so some hops are local
 * and most remote, as in a real cluster, and each entity answers its pinger directly. Pings carry a {@value RemoteMessages#PAYLOAD_BYTES}-byte payload, bound to each
 * framework's Jackson CBOR serializer where they cross. Nodes start once per trial (every entity
 * answered once before the first iteration) and terminate at its end. One invocation is {@code
 * max(1000, 100 × inFlight)} round trips per pair.
 *
 * <p>The score to read is the secondary result {@code messages}: messages/s, one message being one
 * direction (a ping or a pong); the primary score is invocations/s, since the batch size depends on
 * {@code inFlight}. Secondary results {@code p50Us}, {@code p99Us}, {@code p999Us} and {@code
 * maxUs} are the round trips of the iteration in microseconds, from the ping's send to its pong's
 * arrival (queueing behind the other pings in flight included); a percentile table over all
 * measurement iterations is printed at the end of each trial.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ShardedPingPong -f 2 -wi 3 -i 5 -r 2s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ShardedPingPong {
  /** troupe | pekko. */
  @Param({"troupe", "pekko"})
  public String impl;

  /** Pinger/entity pairs: the pingers over the three nodes, the entities wherever sharding puts them. */
  @Param({"1", "8"})
  public int pairs;

  /** Pings outstanding per pair. */
  @Param({"1", "100"})
  public int inFlight;

  private ShardedPingPongDriver driver;
  private int roundTripsPerPair;
  private Histogram[] perPair;
  private final Histogram iteration = RoundTrips.newHistogram();
  private final Histogram measured = RoundTrips.newHistogram();


  /** Messages (pings + pongs) completed, normalized by JMH to messages/s. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Messages {
    public long messages;

    @Setup(Level.Iteration)
    public void reset() {
      messages = 0;
    }
  }

  /** Round-trip percentiles of the current iteration (µs), as JMH secondary results. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Latencies {
    public double p50Us;
    public double p99Us;
    public double p999Us;
    public double maxUs;
  }

  @Setup(Level.Trial)
  public void setup() {
    if (pairs < 1 || inFlight < 1) {
      throw new IllegalArgumentException("pairs and inFlight must be >= 1");
    }
    roundTripsPerPair = Math.max(1_000, 100 * inFlight);
    perPair = new Histogram[pairs];
    for (int i = 0; i < pairs; i++) {
      perPair[i] = RoundTrips.newHistogram();
    }
    driver = ShardedPingPongDriver.create(impl);
    driver.setup(pairs, inFlight);
  }

  @Setup(Level.Iteration)
  public void startIteration() {
    iteration.reset();
  }

  @Benchmark
  public void pingPong(Messages counter, Latencies out) {
    for (Histogram h : perPair) {
      h.reset();
    }
    driver.runIteration(roundTripsPerPair, perPair);
    for (Histogram h : perPair) {
      iteration.add(h);
    }
    counter.messages += 2L * pairs * roundTripsPerPair;
    out.p50Us = RoundTrips.us(iteration.getValueAtPercentile(50));
    out.p99Us = RoundTrips.us(iteration.getValueAtPercentile(99));
    out.p999Us = RoundTrips.us(iteration.getValueAtPercentile(99.9));
    out.maxUs = RoundTrips.us(iteration.getMaxValue());
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
            "%n%s pairs=%d inFlight=%d round trip (us, %d samples): %s%n",
            impl, pairs, inFlight, measured.getTotalCount(), RoundTrips.percentiles(measured));
      }
    } finally {
      if (driver != null) {
        driver.teardown();
      }
    }
  }
}
