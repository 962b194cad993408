package dev.troupe.actor.tests;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.TestActors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The virtual-thread dispatcher's scenario, run by {@link VirtualThreadDispatcherTest} in its own
 * JVM when that one is older than JDK 21 (or inline on 21+): 1,000 actors on {@code
 * blocking-io-dispatcher} (the example of reference.conf) block at once in their handlers while an actor on the
 * default dispatcher keeps answering asks; then they are released and all reply, each from a
 * virtual thread. Then {@code throughput} is shown to still apply: 20 queued messages take 20
 * mailbox runs (20 virtual threads) at throughput 1 and one run at throughput 100.
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

  /** Blocks in its first message; then records the thread of each Integer; "report" answers how many threads. */
  public static final class ThreadRecorder extends UntypedActor {
    private final CountDownLatch entered;
    private final CountDownLatch release;
    private final java.util.Set<String> threads = new java.util.HashSet<>();
    private int recorded;

    public ThreadRecorder(CountDownLatch entered, CountDownLatch release) {
      this.entered = entered;
      this.release = release;
    }

    @Override
    public void onReceive(Object message) throws Exception {
      if ("block".equals(message)) {
        entered.countDown();
        release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
      } else if ("report".equals(message)) {
        getSender().tell(recorded + " messages on " + threads.size() + " threads", getSelf());
      } else {
        recorded++;
        threads.add(Thread.currentThread().getName());
      }
    }
  }

  /**
   * Runs 20 queued messages on {@code dispatcher}: one virtual thread per mailbox run, so their
   * thread count says how many runs the dispatcher's {@code throughput} made of them.
   */
  private static String threadsFor(ActorSystem system, String dispatcher) throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ActorRef a = system.actorOf(Props.create(ThreadRecorder.class, entered, release).withDispatcher(dispatcher));
    a.tell("block", ActorRef.noSender());
    if (!entered.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
      return "never blocked";
    }
    for (int i = 0; i < 20; i++) {
      a.tell(i, ActorRef.noSender());
    }
    CompletableFuture<Object> report = Patterns.ask(a, "report", WAIT).toCompletableFuture();
    release.countDown();
    return String.valueOf(report.get(WAIT.toSeconds(), TimeUnit.SECONDS));
  }

  /**
   * Runs the scenario.
   *
   * @return the result line
   */
  static String run() throws Exception {
    ActorSystem system = ActorSystem.create(RuntimeFixtures.uniqueName("vt"), ConfigFactory.parseString(""
        + "blocking-io-dispatcher { executor = virtual-thread-executor }\n"
        + "vt-throughput-1 { executor = virtual-thread-executor, throughput = 1 }\n"
        + "vt-throughput-100 { executor = virtual-thread-executor, throughput = 100 }\n")
        .withFallback(ConfigFactory.load()));
    CountDownLatch entered = new CountDownLatch(BLOCKED);
    CountDownLatch release = new CountDownLatch(1);
    try {
      List<CompletableFuture<Object>> replies = new ArrayList<>();
      for (int i = 0; i < BLOCKED; i++) {
        ActorRef a = system.actorOf(Props.create(BlockingActor.class, entered, release)
            .withDispatcher("blocking-io-dispatcher"));
        replies.add(Patterns.ask(a, "block", WAIT.multipliedBy(2)).toCompletableFuture());
      }
      if (!entered.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
        return FAILED + ": only " + (BLOCKED - entered.getCount()) + " of " + BLOCKED + " actors were blocked at once";
      }
      ActorRef echo = system.actorOf(TestActors.echoActorProps());
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
      // throughput still applies: a run per message at 1, one run for all 20 at 100
      String one = threadsFor(system, "vt-throughput-1");
      String hundred = threadsFor(system, "vt-throughput-100");
      if (!one.equals("20 messages on 20 threads") || !hundred.equals("20 messages on 1 threads")) {
        return FAILED + ": throughput 1 gave " + one + ", throughput 100 gave " + hundred;
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
