package dev.troupe.samples.pingpong;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * N pairs of actors ping-ponging on one dispatcher for a few seconds; prints messages per second.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar pingpong --pairs 4 --throughput 20 --executor affinity --seconds 5
 * </pre>
 *
 * This is a demo, not a benchmark: for numbers to compare, use {@code PingPongThroughput} in the
 * JMH suite ({@code bench}), which runs the same workload on Apache Pekko side by side.
 */
@Command(name = "pingpong", description = "N actor pairs ping-ponging; prints messages/s")
public final class PingPong extends Sample {
  @Option(names = "--pairs", paramLabel = "N", description = "actor pairs, 2 per core (default ${DEFAULT-VALUE})")
  private int pairs = 2 * Runtime.getRuntime().availableProcessors();

  @Option(names = "--throughput", paramLabel = "N",
      description = "messages per actor per scheduling (default ${DEFAULT-VALUE})")
  private int throughput = 5;

  @Option(names = "--executor", paramLabel = "X", converter = Executor.Converter.class,
      description = "the dispatcher's executor: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE})")
  private Executor executor = Executor.AFFINITY;

  @Option(names = "--seconds", paramLabel = "N",
      description = "measured seconds after a 1 s warm-up (default ${DEFAULT-VALUE})")
  private int seconds = 5;

  @Option(names = "--in-flight", paramLabel = "N", description = "messages in flight per pair (default ${DEFAULT-VALUE})")
  private int inFlight = 1;

  /** The executors of the {@code pingpong-dispatcher}, by the names {@link #dispatcherConfig} takes. */
  public enum Executor {
    /** The affinity pool ({@code affinity-pool-executor}). */
    AFFINITY("affinity"),
    /** {@code fork-join-executor}, sized to the cores. */
    FORK_JOIN("fork-join"),
    /** {@code thread-pool-executor}, sized to the cores. */
    THREAD_POOL("thread-pool");

    private final String text;

    Executor(String text) {
      this.text = text;
    }

    /** @return its name on the command line and in {@link #dispatcherConfig} */
    @Override
    public String toString() {
      return text;
    }

    /** Reads an executor by its name on the command line. */
    static final class Converter implements ITypeConverter<Executor> {
      @Override
      public Executor convert(String value) {
        for (Executor e : values()) {
          if (e.text.equals(value)) {
            return e;
          }
        }
        throw new TypeConversionException("'" + value + "' is not one of " + List.of(values()));
      }
    }
  }

  /** The ball. */
  public enum Ball {
    /** Sent by the pinger. */
    PING,
    /** Sent back by the ponger. */
    PONG
  }

  /** Sends pings while the run lasts and counts the pongs. */
  static final class Pinger extends AbstractActor {
    private final ActorRef ponger;
    private final Run run;
    private final AtomicLong published;
    private long count;

    Pinger(ActorRef ponger, Run run, AtomicLong published) {
      this.ponger = ponger;
      this.run = run;
      this.published = published;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals(Ball.PONG, b -> {
            if ((++count & 1023) == 0) {
              published.lazySet(count); // a release store every 1024 pongs: cheap, good enough
            }
            if (run.running) {
              ponger.tell(Ball.PING, getSelf());
            } else {
              published.lazySet(count);
            }
          })
          .match(Integer.class, inFlight -> {
            for (int i = 0; i < inFlight; i++) {
              ponger.tell(Ball.PING, getSelf());
            }
          })
          .build();
    }
  }

  /** Answers every ping. */
  static final class Ponger extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchEquals(Ball.PING, b -> getSender().tell(Ball.PONG, getSelf())).build();
    }
  }

  /** Whether the run goes on; read by every pinger. */
  static final class Run {
    volatile boolean running = true;
  }

  @Override
  protected int run(PrintStream out) throws Exception {
    atLeast("--pairs", pairs, 1);
    atLeast("--throughput", throughput, 1);
    atLeast("--seconds", seconds, 1);
    atLeast("--in-flight", inFlight, 1);
    Result r = measure(pairs, throughput, executor.toString(), seconds, inFlight, out);
    out.printf("%d pairs, throughput %d, %s executor: %,.0f messages/s on average%n",
        pairs, throughput, executor, r.messagesPerSecond());
    return 0;
  }

  /**
   * The outcome of a run.
   *
   * @param messages messages sent (pings + pongs) during the measured seconds
   * @param seconds the measured time
   */
  public record Result(long messages, double seconds) {
    /** @return messages per second */
    public double messagesPerSecond() {
      return messages / seconds;
    }
  }

  /**
   * Runs the ping-pong.
   *
   * @param pairs actor pairs
   * @param throughput the dispatcher's throughput
   * @param executor affinity | fork-join | thread-pool
   * @param seconds measured seconds
   * @param inFlight messages in flight per pair
   * @param out where per-second figures go
   * @return the measured result
   * @throws Exception on failure
   */
  public static Result measure(
      int pairs, int throughput, String executor, int seconds, int inFlight, PrintStream out)
      throws Exception {
    ActorSystem system = ActorSystem.create("pingpong", dispatcherConfig(throughput, executor));
    Run run = new Run();
    List<AtomicLong> counters = new ArrayList<>();
    try {
      List<ActorRef> pingers = new ArrayList<>();
      for (int i = 0; i < pairs; i++) {
        ActorRef ponger =
            system.actorOf(Props.create(Ponger.class).withDispatcher("pingpong-dispatcher"), "ponger-" + i);
        AtomicLong c = new AtomicLong();
        counters.add(c);
        pingers.add(
            system.actorOf(
                Props.create(Pinger.class, ponger, run, c).withDispatcher("pingpong-dispatcher"),
                "pinger-" + i));
      }
      for (ActorRef p : pingers) {
        p.tell(inFlight, ActorRef.noSender());
      }
      TimeUnit.SECONDS.sleep(1); // warm-up
      long start = System.nanoTime();
      long startCount = total(counters);
      long last = startCount;
      long lastTime = start;
      for (int s = 1; s <= seconds; s++) {
        long target = start + TimeUnit.SECONDS.toNanos(s);
        long wait;
        while ((wait = target - System.nanoTime()) > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        long now = System.nanoTime();
        long c = total(counters);
        out.printf("  second %d: %,.0f messages/s%n", s, 2.0 * (c - last) * 1e9 / (now - lastTime));
        last = c;
        lastTime = now;
      }
      long end = System.nanoTime();
      long messages = 2 * (total(counters) - startCount);
      return new Result(messages, (end - start) / 1e9);
    } finally {
      run.running = false;
      system.terminate().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * The {@code pingpong-dispatcher} section: the chosen executor sized to the cores (the defaults
   * of fork-join and thread-pool start 8 threads, too many for a ping-pong on a small machine).
   */
  static Config dispatcherConfig(int throughput, String executor) {
    int cores = Runtime.getRuntime().availableProcessors();
    String section =
        switch (executor) {
          case "fork-join" -> "executor = fork-join-executor\n"
              + "fork-join-executor { parallelism-min = 1, parallelism-max = " + cores + " }";
          case "thread-pool" -> "executor = thread-pool-executor\n"
              + "thread-pool-executor { core-pool-size-min = 1, core-pool-size-factor = 1.0, "
              + "core-pool-size-max = " + cores + " }";
          default -> "executor = affinity-pool-executor";
        };
    return ConfigFactory.parseString(
        "pingpong-dispatcher { throughput = " + throughput + "\n" + section + " }");
  }

  private static long total(List<AtomicLong> counters) {
    long t = 0;
    for (AtomicLong c : counters) {
      t += c.get();
    }
    return t;
  }
}
