package dev.troupe.bench;

import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.ProcCpu;
import dev.troupe.bench.common.RemoteMessages;
import dev.troupe.bench.common.RoundTrips;
import dev.troupe.bench.remote.RemotePingPongDriver;
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
 * Messages per second and round-trip latency between actors on two remoting nodes.
 *
 * <p>Two actor systems of the chosen framework in this JVM, each with remoting on 127.0.0.1 and an
 * ephemeral port: Troupe's {@code remote} provider, or Pekko's Artery TCP with its defaults. The
 * pong system hosts {@code pairs} pongers; the ping system looks each one up by path and keeps
 * {@code inFlight} pings outstanding per pair, sending the next ping when a pong arrives. Pings and
 * pongs are records with a {@value RemoteMessages#PAYLOAD_BYTES}-byte payload and a timestamp,
 * bound to each framework's Jackson CBOR serializer. Systems start once per trial and terminate at
 * its end. One invocation is {@code max(1000, 100 × inFlight)} round trips per pair.
 *
 * <p>The score to read is the secondary result {@code messages}: messages/s, one message being one
 * direction (a ping or a pong); the primary score is invocations/s, since the batch size depends on
 * {@code inFlight}. Secondary results {@code p50Us}, {@code p99Us}, {@code p999Us} and {@code
 * maxUs} are the round trips of the iteration in microseconds, from the ping's send to its pong's
 * arrival (queueing behind the other pings in flight included); a percentile table over all
 * measurement iterations is printed at the end of each trial.
 *
 * <p>{@code impl=raw} and {@code raw-batched} are the raw-socket baseline ({@code
 * remote.RawSocketPingPong}): frames of the same size as Troupe's over plain blocking sockets, a
 * thread per connection end, one {@code write} per frame or writes gathered while more is queued;
 * the physical limit every other row is a ratio to. With {@code -p jvms=2} the pong side runs in a
 * child JVM ({@code remote.PongNode}, killed at the trial's end), so the two sides no longer share
 * one JVM's threads and collector; {@code cpuUsPerRoundTrip} counts both processes.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar RemotePingPong -f 2 -wi 3 -i 5 -r 2s} (and
 * {@code -p jvms=2} for two JVMs)
 *
 * <p>The Micrometer binder's cost: {@code java -jar bench/target/benchmarks.jar RemotePingPong -f 2
 * -wi 3 -i 5 -r 2s -p impl=troupe,troupe-micrometer}
 *
 * <p>Inbound lanes against delivery on the network thread: {@code java -jar bench/target/benchmarks.jar
 * RemotePingPong -f 2 -wi 2 -i 3 -r 1s -p impl=troupe -p pairs=1,8 -p inFlight=1,100 -p inboundLanes=1,4}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RemotePingPong {
  /**
   * troupe | pekko (see {@link Impl}), or troupe-micrometer: Troupe with telemetry on and the
   * Micrometer binder bound on both systems (not in the default list; name it with {@code -p
   * impl=troupe,troupe-micrometer}).
   */
  @Param({"troupe", "pekko", "raw", "raw-batched"})
  public String impl;

  /**
   * 1: both sides in this JVM (they share its cores and its collector); 2: the pong side in a child
   * JVM started with this jar's class path ({@code PongNode}), the ping side here.
   */
  @Param({"1"})
  public int jvms;

  /** Pinger/ponger pairs, each pinger on the ping system and its ponger on the pong system. */
  @Param({"1", "8"})
  public int pairs;

  /** Pings outstanding per pair. */
  @Param({"1", "100"})
  public int inFlight;

  /**
   * Troupe only: {@code troupe.remote.advanced.inbound-lanes} on both systems ({@code auto}, its
   * default, or a number; 1 = deserialize and deliver on the network thread). Compare with {@code -p
   * impl=troupe -p inboundLanes=1,4}.
   */
  @Param({"auto"})
  public String inboundLanes;

  /**
   * Troupe only: {@code troupe.remote.advanced.transport} on both systems and the child JVM ({@code
   * nio}, its default, {@code epoll} or {@code auto}; epoll needs a jar built with {@code
   * -Pnative-epoll}, see bench/pom.xml). Compare with {@code -p impl=troupe -p transport=nio,epoll}.
   */
  @Param({"nio"})
  public String transport;

  private RemotePingPongDriver driver;
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

  /**
   * Round-trip percentiles of the current iteration (µs), and the CPU time per round trip of every
   * process involved (this JVM, and the pong JVM when {@code jvms = 2}: {@code /proc/<pid>/stat},
   * user + system, all threads, 10 ms resolution, over the iteration so far), as JMH secondary results.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Latencies {
    public double p50Us;
    public double p99Us;
    public double p999Us;
    public double maxUs;
    public double cpuUsPerRoundTrip;
  }

  private long cpuAtStart;
  private long roundTripsInIteration;

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
    driver = RemotePingPongDriver.create(impl, jvms, inboundLanes, transport);
    driver.setup(pairs, inFlight);
  }

  @Setup(Level.Iteration)
  public void startIteration() {
    iteration.reset();
    roundTripsInIteration = 0;
    cpuAtStart = cpuNanos();
  }

  /** @return CPU time of this JVM and of the pong JVM if there is one, or -1 when unknown */
  private long cpuNanos() {
    long self = ProcCpu.nanos(ProcessHandle.current().pid());
    long child = driver.childPid() < 0 ? 0 : ProcCpu.nanos(driver.childPid());
    return self < 0 || child < 0 ? -1 : self + child;
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
    roundTripsInIteration += (long) pairs * roundTripsPerPair;
    long cpu = cpuNanos();
    out.cpuUsPerRoundTrip = cpu < 0 || cpuAtStart < 0 ? -1 : (cpu - cpuAtStart) / 1000.0 / roundTripsInIteration;
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
