package dev.troupe.bench;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.Observability;
import dev.troupe.bench.common.PingPongMessages.Ping;
import dev.troupe.bench.common.PingPongMessages.Pong;
import dev.troupe.bench.common.PingPongMessages.Start;
import dev.troupe.bench.common.TroupeSystems;
import io.opentelemetry.api.trace.Span;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
 * The CPU one local message costs, on one thread: a pinger/ponger pair on a {@code
 * CallingThreadDispatcher}, so the benchmark's thread sends, enqueues, schedules and handles every
 * message itself, and nothing waits for another thread. It isolates what a change on the message
 * path costs from the cross-thread hand-offs that dominate {@code PingPongThroughput}, and its
 * secondary result {@code cpuNsPerMessage} (the thread's CPU time per message, from {@link
 * ThreadMXBean}) stays put on a machine shared with other work, where wall-clock rates do not.
 *
 * <p>{@code impl}: {@code troupe}; {@code troupe-tracing} (OpenTelemetry tracing installed, no span
 * current); {@code troupe-traced} (every message handled in a sampled span; the SDK exports
 * nothing).
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar SendCost -f 2 -wi 3 -i 5 -r 1s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SendCost {
  /** Round trips per invocation, each a ping and a pong. */
  public static final int ROUND_TRIPS = 10_000;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** troupe | troupe-tracing | troupe-traced (see the class comment). */
  @Param({"troupe", "troupe-tracing"})
  public String impl;

  private ActorSystem system;
  private Observability observability;
  private ActorRef pinger;

  /** The thread's CPU time per message over the iteration, as a JMH secondary result. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Cpu {
    public double cpuNsPerMessage;
    private long cpuNanos;
    private long messages;

    @Setup(Level.Iteration)
    public void reset() {
      cpuNsPerMessage = 0;
      cpuNanos = 0;
      messages = 0;
    }

    void add(long nanos, long count) {
      cpuNanos += nanos;
      messages += count;
      cpuNsPerMessage = (double) cpuNanos / messages;
    }
  }

  @Setup(Level.Trial)
  public void setup() {
    if (!impl.equals("troupe") && !impl.equals("troupe-tracing") && !impl.equals("troupe-traced")) {
      throw new IllegalArgumentException(
          "unknown impl '" + impl + "': expected troupe, troupe-tracing or troupe-traced");
    }
    system = TroupeSystems.start(
        Names.unique("send-cost"), Dispatchers.ID + " { type = CallingThreadDispatcher }\n");
    if (!impl.equals("troupe")) {
      observability = Observability.tracing(system);
    }
    ActorRef ponger =
        system.actorOf(Props.create(Ponger.class, Ponger::new).withDispatcher(Dispatchers.ID));
    pinger = system.actorOf(
        Props.create(Pinger.class, () -> new Pinger(ponger)).withDispatcher(Dispatchers.ID));
  }

  @Benchmark
  @OperationsPerInvocation(2 * ROUND_TRIPS)
  public void pingPong(Cpu cpu) {
    Completion done = new Completion(1);
    Start start = new Start(done, ROUND_TRIPS, 1);
    long before = THREADS.getCurrentThreadCpuTime();
    if (impl.equals("troupe-traced")) {
      Span iteration = observability.tracer().spanBuilder("iteration").startSpan();
      try (io.opentelemetry.context.Scope ignored = iteration.makeCurrent()) {
        pinger.tell(start, ActorRef.noSender());
      } finally {
        iteration.end();
      }
    } else {
      pinger.tell(start, ActorRef.noSender()); // returns when every round trip is done
    }
    cpu.add(THREADS.getCurrentThreadCpuTime() - before, 2L * ROUND_TRIPS);
    done.await("send-cost round trips"); // already done: the calling thread ran them all
  }

  @TearDown(Level.Trial)
  public void teardown() {
    TroupeSystems.stop(system);
    if (observability != null) {
      observability.close();
    }
  }

  static final class Pinger extends UntypedActor {
    private final ActorRef ponger;
    private Completion done;
    private int left;

    Pinger(ActorRef ponger) {
      this.ponger = ponger;
    }

    @Override
    public void onReceive(Object message) {
      if (message == Pong.INSTANCE) {
        if (--left > 0) {
          ponger.tell(Ping.INSTANCE, getSelf());
        } else {
          done.done();
        }
      } else if (message instanceof Start s) {
        done = s.done();
        left = s.roundTrips();
        ponger.tell(Ping.INSTANCE, getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  static final class Ponger extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      if (message == Ping.INSTANCE) {
        getSender().tell(Pong.INSTANCE, getSelf());
      } else {
        unhandled(message);
      }
    }
  }
}
