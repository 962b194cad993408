package dev.troupe.samples.routing;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.pattern.Patterns;
import dev.troupe.routing.DefaultResizer;
import dev.troupe.routing.GetRoutees;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.routing.Routees;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A resizable pool under a burst of slow tasks: it grows while every worker has tasks waiting, and
 * shrinks back once the load drops to a trickle. Prints the pool size a few times a second.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar resizer --seconds 5 --upper 8 --task-ms 40
 * </pre>
 *
 * The first half of the run sends tasks far faster than two workers can do them; the second half
 * sends one task at a time, so most workers idle and the resizer backs off.
 */
@Command(name = "resizer", description = "a resizable pool growing under a burst of slow tasks and shrinking after")
public final class ResizerSample extends Sample {
  @Option(names = "--seconds", paramLabel = "N", description = "length of the run: half burst, half calm (default ${DEFAULT-VALUE})")
  private int seconds = 5;

  @Option(names = "--upper", paramLabel = "N", description = "the pool's upper bound (its lower bound is 2) (default ${DEFAULT-VALUE})")
  private int upper = 8;

  @Option(names = "--task-ms", paramLabel = "N", description = "milliseconds each task takes (default ${DEFAULT-VALUE})")
  private int taskMs = 40;

  /** Simulates slow work (blocking, on a dispatcher of its own). */
  static final class SlowWorker extends AbstractActor {
    private final int taskMs;

    SlowWorker(int taskMs) {
      this.taskMs = taskMs;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> {
        Thread.sleep(taskMs); // the "work"
        if (!getSender().equals(getContext().getSystem().deadLetters())) {
          getSender().tell("done", getSelf()); // only the calm phase asks
        }
      }).build();
    }
  }

  @Override
  protected int run(PrintStream out) throws Exception {
    atLeast("--seconds", seconds, 2);
    atLeast("--upper", upper, 3);
    atLeast("--task-ms", taskMs, 1);
    ActorSystem system = ActorSystem.create(
        "resizer",
        ConfigFactory.parseString(
                "workers-dispatcher { executor = thread-pool-executor, thread-pool-executor { "
                    + "core-pool-size-min = " + upper + ", core-pool-size-max = " + upper
                    + ", max-pool-size-min = " + upper + ", max-pool-size-max = " + upper + " } }")
            .withFallback(ConfigFactory.load()));
    try {
      DefaultResizer resizer = new DefaultResizer(2, upper)
          .withRampupRate(0.5)
          .withBackoffThreshold(0.3)
          .withBackoffRate(0.25)
          .withMessagesPerResize(4);
      ActorRef pool = system.actorOf(
          Props.create(SlowWorker.class, taskMs)
              .withDispatcher("workers-dispatcher")
              .withRouter(new RoundRobinPool(2).withResizer(resizer)),
          "workers");
      long start = System.nanoTime();
      long end = start + TimeUnit.SECONDS.toNanos(seconds);
      long burstEnd = start + TimeUnit.SECONDS.toNanos(seconds) / 2;
      long nextReport = start;
      int peak = 0;
      int size = 0;
      while (System.nanoTime() < end) {
        long now = System.nanoTime();
        boolean burst = now < burstEnd;
        if (burst) {
          for (int i = 0; i < upper; i++) {
            pool.tell("task", ActorRef.noSender()); // far more than two workers can do
          }
        } else {
          // A trickle: one task at a time, waiting for it (most workers idle).
          Patterns.ask(pool, "task", Duration.ofSeconds(5)).toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (now >= nextReport) {
          size = poolSize(pool);
          peak = Math.max(peak, size);
          out.printf("%5.2fs  %-6s pool size %2d  %s%n",
              (now - start) / 1e9, burst ? "burst" : "calm", size, "#".repeat(size));
          nextReport = now + TimeUnit.MILLISECONDS.toNanos(250);
        }
        if (burst) {
          Thread.sleep(taskMs); // pace the burst: about "upper" tasks per task time
        }
      }
      size = poolSize(pool);
      out.println("peak pool size " + peak + ", final pool size " + size + " (bounds 2.." + upper + ")");
      return 0;
    } finally {
      system.terminate().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static int poolSize(ActorRef pool) throws Exception {
    Object r = Patterns.ask(pool, GetRoutees.getInstance(), Duration.ofSeconds(5))
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
    return ((Routees) r).routees().size();
  }
}
