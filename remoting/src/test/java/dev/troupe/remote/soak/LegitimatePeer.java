package dev.troupe.remote.soak;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The well-behaved peer of {@link RemoteSoakTest}: a Troupe system that, for as long as it runs,
 * asks {@code /user/echo} on the victim at a steady rate, watches {@code /user/watched} there
 * (which never terminates: any {@code Terminated} for it is false), and once a second does what
 * only works if the node's string tables and system messages are right: looks up an actor it has
 * never named ({@code /user/fresh-<i>}), asks it, watches it and stops it, and expects its
 * {@code Terminated}.
 */
final class LegitimatePeer implements AutoCloseable {
  final AtomicLong sent = new AtomicLong();
  final AtomicLong answered = new AtomicLong();
  final AtomicLong failed = new AtomicLong();
  final AtomicLong wrong = new AtomicLong();
  final AtomicLong freshSent = new AtomicLong();
  final AtomicLong freshAnswered = new AtomicLong();
  final AtomicLong freshFailed = new AtomicLong();
  final AtomicLong deathsExpected = new AtomicLong();
  final AtomicLong deathsHeard = new AtomicLong();
  final AtomicLong falseTerminated = new AtomicLong();
  private final List<String> problems = new ArrayList<>();
  private final Latencies latencies = new Latencies();

  private final ActorSystem system;
  private final String victim;
  private final Duration askTimeout;
  private final int freshActors;
  private final ScheduledExecutorService clock =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "soak-legitimate-peer");
            t.setDaemon(true);
            return t;
          });
  private final ConcurrentHashMap<String, Boolean> awaitedDeaths = new ConcurrentHashMap<>();
  private ActorRef echo;
  private ActorRef watcher;
  private int nextFresh;

  LegitimatePeer(ActorSystem system, String victim, Duration askTimeout, int freshActors) {
    this.system = system;
    this.victim = victim;
    this.askTimeout = askTimeout;
    this.freshActors = freshActors;
  }

  /** Watches on behalf of the peer; reports every {@code Terminated} it gets. */
  static final class Watcher extends AbstractActor {
    private final Consumer<Terminated> onTerminated;

    Watcher(Consumer<Terminated> onTerminated) {
      this.onTerminated = onTerminated;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(ActorRef.class, ref -> getContext().watch(ref))
          .match(Stop.class, s -> {
            getContext().watch(s.ref());
            s.ref().tell("stop", getSelf());
          })
          .match(Terminated.class, onTerminated::accept)
          .build();
    }
  }

  /** Watch {@code ref}, then tell it to stop. */
  record Stop(ActorRef ref) {}

  /** Looks the victim's actors up and starts asking; fails if the victim does not answer at all. */
  void start(double askRate) {
    echo = system.actorSelection(victim + "/user/echo").resolveOne(askTimeout.multipliedBy(2)).toCompletableFuture().join();
    ActorRef watched =
        system.actorSelection(victim + "/user/watched").resolveOne(askTimeout.multipliedBy(2)).toCompletableFuture().join();
    String watchedPath = watched.path().toString();
    watcher = system.actorOf(Props.create(Watcher.class, () -> new Watcher(t -> terminated(t, watchedPath))), "watcher");
    watcher.tell(watched, ActorRef.noSender());
    long period = (long) (TimeUnit.SECONDS.toNanos(1) / askRate);
    clock.scheduleAtFixedRate(guarded(this::ask), 0, period, TimeUnit.NANOSECONDS);
    clock.scheduleAtFixedRate(guarded(this::fresh), 500, 1_000, TimeUnit.MILLISECONDS);
  }

  /** A periodic task that survives its own failure (a throwing task would never run again). */
  private Runnable guarded(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        failed.incrementAndGet();
        problem("the peer could not send: " + e);
      }
    };
  }

  private void terminated(Terminated t, String watchedPath) {
    String path = t.actor().path().toString();
    if (path.equals(watchedPath)) {
      falseTerminated.incrementAndGet();
      problem("false Terminated for " + path + " (existenceConfirmed " + t.existenceConfirmed() + ", addressTerminated " + t.addressTerminated() + ")");
    } else if (awaitedDeaths.remove(path) != null) {
      deathsHeard.incrementAndGet();
    } else {
      problem("unexpected Terminated for " + path);
    }
  }

  private void ask() {
    long n = sent.incrementAndGet();
    String question = "q" + n;
    long start = System.nanoTime();
    Patterns.ask(echo, question, askTimeout)
        .whenComplete(
            (answer, e) -> {
              if (e != null) {
                failed.incrementAndGet();
                problem("ask " + n + " lost: " + e);
              } else if (!question.equals(answer)) {
                wrong.incrementAndGet();
                problem("ask " + n + " answered " + answer);
              } else {
                answered.incrementAndGet();
                latencies.add(System.nanoTime() - start);
              }
            });
  }

  private void fresh() {
    if (nextFresh >= freshActors) {
      return;
    }
    String path = victim + "/user/fresh-" + nextFresh++;
    freshSent.incrementAndGet();
    system.actorSelection(path)
        .resolveOne(askTimeout)
        .thenCompose(ref -> Patterns.ask(ref, "hello", askTimeout).thenApply(answer -> {
          if (!"hello".equals(answer)) {
            throw new IllegalStateException("answered " + answer);
          }
          return ref;
        }))
        .whenComplete(
            (ref, e) -> {
              if (e != null) {
                freshFailed.incrementAndGet();
                problem("lookup and ask of " + path + " failed: " + e);
                return;
              }
              freshAnswered.incrementAndGet();
              deathsExpected.incrementAndGet();
              awaitedDeaths.put(ref.path().toString(), Boolean.TRUE);
              watcher.tell(new Stop(ref), ActorRef.noSender());
            });
  }

  private void problem(String what) {
    synchronized (problems) {
      if (problems.size() < 10) {
        problems.add(what);
      }
    }
  }

  /** Stops asking; waits (bounded) for the answers and deaths still on their way. */
  void stopAndDrain() {
    clock.shutdown();
    try {
      clock.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      new TestKit(system)
          .awaitCond(
              askTimeout.multipliedBy(2).plusSeconds(1),
              Duration.ofMillis(20),
              "answers and deaths still on their way",
              () -> answered.get() + failed.get() + wrong.get() >= sent.get()
                  && freshAnswered.get() + freshFailed.get() >= freshSent.get()
                  && deathsHeard.get() >= deathsExpected.get());
    } catch (AssertionError stillMissing) {
      // the verdict counts what is missing
    }
  }

  /** @return up to ten things that went wrong, in the order seen */
  List<String> problems() {
    synchronized (problems) {
      return List.copyOf(problems);
    }
  }

  /** @return the latency quantile {@code q} (0..1) of the answered asks, in milliseconds */
  double latencyMs(double q) {
    return latencies.quantile(q) / 1e6;
  }

  @Override
  public void close() {
    clock.shutdownNow();
  }

  /** Every answered ask's latency, in nanoseconds (a few hundred thousand at most). */
  static final class Latencies {
    private long[] values = new long[1024];
    private int size;

    synchronized void add(long nanos) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = nanos;
    }

    synchronized long quantile(double q) {
      if (size == 0) {
        return 0;
      }
      long[] sorted = Arrays.copyOf(values, size);
      Arrays.sort(sorted);
      return sorted[Math.max(0, (int) Math.ceil(q * size) - 1)];
    }
  }
}
