package dev.troupe.bench;

import dev.troupe.bench.pubsub.PubSubDriver;
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
 * Publish-subscribe across a cluster: Troupe's {@code DistributedPubSub} beside Pekko's (classic,
 * {@code pekko-cluster-tools}), each with its defaults. Two members of the chosen framework in this
 * JVM (loopback, ephemeral ports; Troupe on its JGroups engine, Pekko over Artery TCP), {@code
 * subscribers} actors on each subscribed to one topic. One invocation publishes {@value #MESSAGES}
 * messages (a {@value dev.troupe.bench.common.RemoteMessages#PAYLOAD_BYTES}-byte payload on each
 * framework's Jackson CBOR) from the benchmark thread through the first member's mediator and waits
 * until every subscriber on both members got all of them: the local ones directly, the other
 * member's through that member's mediator (Troupe and Pekko both send a published message to each
 * other member once).
 *
 * <p>The score to read is the secondary result {@code deliveries}: messages received by
 * subscribers per second; the primary score is invocations/s.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar PubSubPublish -f 2 -wi 3 -i 5 -r 2s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PubSubPublish {
  /** Messages published per invocation: under what either transport queues for one peer unasked. */
  public static final int MESSAGES = 1000;

  /** troupe | pekko. */
  @Param({"troupe", "pekko"})
  public String impl;

  /** Subscribers on each of the two members. */
  @Param({"1", "10"})
  public int subscribers;

  private PubSubDriver driver;

  /** Deliveries completed, normalized by JMH to deliveries/s. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Deliveries {
    public long deliveries;

    @Setup(Level.Iteration)
    public void reset() {
      deliveries = 0;
    }
  }

  @Setup(Level.Trial)
  public void setup() {
    if (subscribers < 1) {
      throw new IllegalArgumentException("subscribers must be >= 1");
    }
    driver = PubSubDriver.create(impl);
    driver.setup(subscribers);
  }

  @Benchmark
  public void publish(Deliveries counter) {
    driver.runIteration(MESSAGES);
    counter.deliveries += 2L * subscribers * MESSAGES;
  }

  @TearDown(Level.Trial)
  public void teardown() {
    if (driver != null) {
      driver.teardown();
    }
  }
}
