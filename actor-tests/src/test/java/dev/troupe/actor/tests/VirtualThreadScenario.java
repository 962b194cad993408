package dev.troupe.actor.tests;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The virtual-thread dispatcher's scenario, run by {@link VirtualThreadDispatcherTest} in its own
 * JVM when that one is older than JDK 21 (or inline on 21+): 1,000 actors on {@code
 * troupe.actor.blocking-io-dispatcher} block at once in their handlers while an actor on the
 * default dispatcher keeps answering asks; then they are released and all reply.
 *
 * <p>{@link #main} prints one line starting with {@link #OK} or {@link #FAILED} and exits 0 or 1.
 */
public final class VirtualThreadScenario {
  /** Prefix of the result line of a run that passed. */
  static final String OK = "virtual-thread-scenario: ok";
  /** Prefix of the result line of a run that failed. */
  static final String FAILED = "virtual-thread-scenario: FAILED";

  static final int BLOCKED = 1000;
  static final int PINGS = 50;
  /** The bound of one ask round trip to the default dispatcher while all are blocked. */
  static final Duration PING_BOUND = Duration.ofSeconds(5);
  static final Duration WAIT = Duration.ofSeconds(60);

  private VirtualThreadScenario() {}

  /** Blocks on "block" until released, then replies with where it ran. */
  public static final class BlockingActor extends UntypedActor {
    private final CountDownLatch entered;
    private final CountDownLatch release;

    public BlockingActor(CountDownLatch entered, CountDownLatch release) {
      this.entered = entered;
      this.release = release;
    }

    @Override
    public void onReceive(Object message) throws Exception {
      entered.countDown();
      boolean released = release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
      Thread t = Thread.currentThread();
      boolean virtual = (boolean) Thread.class.getMethod("isVirtual").invoke(t); // JDK 21 API
      getSender().tell((released ? "released" : "timed-out") + " virtual=" + virtual + " thread=" + t.getName(), getSelf());
    }
  }

  /** Answers every message with itself, on the default dispatcher. */
  public static final class Echo extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      getSender().tell(message, getSelf());
    }
  }

  /**
   * Runs the scenario.
   *
   * @return the result line
   */
  static String run() throws Exception {
    ActorSystem system = ActorSystem.create(RuntimeFixtures.uniqueName("vt"));
    CountDownLatch entered = new CountDownLatch(BLOCKED);
    CountDownLatch release = new CountDownLatch(1);
    try {
      List<CompletableFuture<Object>> replies = new ArrayList<>();
      for (int i = 0; i < BLOCKED; i++) {
        ActorRef a = system.actorOf(Props.create(BlockingActor.class, entered, release)
            .withDispatcher("troupe.actor.blocking-io-dispatcher"));
        replies.add(Patterns.ask(a, "block", WAIT.multipliedBy(2)).toCompletableFuture());
      }
      if (!entered.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
        return FAILED + ": only " + (BLOCKED - entered.getCount()) + " of " + BLOCKED + " actors were blocked at once";
      }
      ActorRef echo = system.actorOf(Props.create(Echo.class));
      long maxPingNanos = 0;
      for (int i = 0; i < PINGS; i++) {
        long start = System.nanoTime();
        Object answer;
        try {
          answer = Patterns.ask(echo, i, PING_BOUND).toCompletableFuture().get(PING_BOUND.toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
          return FAILED + ": ask " + i + " to the default dispatcher failed while " + BLOCKED + " actors were blocked: " + e;
        }
        maxPingNanos = Math.max(maxPingNanos, System.nanoTime() - start);
        if (!Integer.valueOf(i).equals(answer)) {
          return FAILED + ": ask " + i + " answered " + answer;
        }
      }
      if (entered.getCount() != 0 || release.getCount() != 1) {
        return FAILED + ": the blocked actors were not all still blocked during the asks";
      }
      release.countDown();
      int ok = 0;
      for (CompletableFuture<Object> r : replies) {
        Object reply = r.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        String s = String.valueOf(reply);
        if (!s.startsWith("released virtual=true thread=") || !s.contains("blocking-io-dispatcher")) {
          return FAILED + ": unexpected reply " + s;
        }
        ok++;
      }
      return OK + " blocked=" + BLOCKED + " replies=" + ok + " pings=" + PINGS + " max-ping-ms="
          + TimeUnit.NANOSECONDS.toMillis(maxPingNanos) + " java=" + Runtime.version().feature();
    } finally {
      release.countDown();
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  /**
   * Runs the scenario and prints its result line.
   *
   * @param args none
   */
  public static void main(String[] args) {
    String result;
    try {
      result = run();
    } catch (Throwable t) {
      result = FAILED + ": " + t;
    }
    System.out.println(result);
    System.out.flush();
    System.exit(result.startsWith(OK) ? 0 : 1);
  }
}
