package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import dev.troupe.routing.BalancingPool;
import dev.troupe.testkit.ActorSystemExtension;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A system with nothing to do wakes no thread: once its work is done every thread it started is
 * parked without a deadline (the default dispatcher's workers, a pinned actor's thread, the
 * workers a balancing pool's team runs on, the scheduler once its timers are gone). And bursts of
 * messages separated by silences of every length, thousands of times, all arrive: a worker or
 * pinned thread on its way to a park with no deadline must not miss the first message of a burst.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IdleSystemTest {
  @RegisterExtension
  final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  private static final String CONFIG =
      "troupe.actor.default-dispatcher.affinity-pool-executor.parallelism-min = 4\n"
          + "pinned-dispatcher { type = PinnedDispatcher }\n";

  /** A message that counts down its round's latch and is passed on {@code hops} more times. */
  record Hit(CountDownLatch latch, int hops) {}

  /** Counts every hit it gets, then passes it to the next actor of the ring, if any hops are left. */
  static final class Relay extends UntypedActor {
    private final LongAdder delivered;
    private ActorRef next;

    Relay(LongAdder delivered) {
      this.delivered = delivered;
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof ActorRef ref) {
        next = ref;
        getSender().tell("linked", getSelf());
      } else if (message instanceof Hit h) {
        delivered.increment();
        h.latch().countDown();
        if (h.hops() > 0) {
          next.tell(new Hit(h.latch(), h.hops() - 1), getSelf());
        }
      } else if ("ping".equals(message)) {
        getSender().tell("pong", getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  @Test
  void afterBurstsAndAsksEveryThreadOfTheSystemParksWithoutADeadlineAndRunsNoMore()
      throws Exception {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Assumptions.assumeTrue(mx.isThreadCpuTimeSupported(), "thread CPU time not supported");
    if (!mx.isThreadCpuTimeEnabled()) {
      mx.setThreadCpuTimeEnabled(true);
    }
    ActorSystem sys = troupe.createSystem(CONFIG);
    LongAdder delivered = new LongAdder();
    List<ActorRef> targets = new ArrayList<>();
    targets.addAll(ring(sys, delivered, 4, null));
    targets.addAll(ring(sys, delivered, 2, "pinned-dispatcher"));
    targets.add(sys.actorOf(Props.create(Relay.class, delivered).withRouter(new BalancingPool(3))));
    CountDownLatch latch = new CountDownLatch(targets.size() * 200);
    for (int i = 0; i < 200; i++) {
      for (ActorRef t : targets) {
        t.tell(new Hit(latch, 0), ActorRef.noSender());
      }
    }
    assertTrue(latch.await(10, TimeUnit.SECONDS), "burst delivered; missing " + latch.getCount());
    for (ActorRef t : targets) { // asks schedule timers and cancel them: the scheduler works too
      Object reply =
          Patterns.ask(t, "ping", Duration.ofSeconds(10)).toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertEquals("pong", reply);
    }

    String prefix = sys.name() + "-";
    awaitAllParkedUntilWoken(prefix, "after the burst");
    long cpuBefore = cpuNanos(mx, prefix);
    // A measurement window, not a synchronizer: nothing may run in it.
    TimeUnit.MILLISECONDS.sleep(300);
    long cpu = cpuNanos(mx, prefix) - cpuBefore;
    Assumptions.assumeTrue(cpu >= 0, "a thread of the system ended during the window");
    assertTrue(
        cpu < 200_000,
        "the idle system's threads used " + cpu / 1_000 + " µs of CPU in 300 ms: "
            + states(prefix));
    assertTrue(allParkedUntilWoken(prefix), "still parked until woken: " + states(prefix));
  }

  @Test
  void thousandsOfBurstsSeparatedBySilencesOnEveryKindOfDispatcherDeliverEveryMessage()
      throws Exception {
    ActorSystem sys = troupe.createSystem(CONFIG);
    LongAdder delivered = new LongAdder();
    List<ActorRef> onPool = ring(sys, delivered, 4, null);
    List<ActorRef> pinned = ring(sys, delivered, 2, "pinned-dispatcher");
    ActorRef balancing =
        sys.actorOf(Props.create(Relay.class, delivered).withRouter(new BalancingPool(3)));
    long seed = System.nanoTime();
    SplittableRandom random = new SplittableRandom(seed);
    String prefix = sys.name() + "-";
    long expected = 0;
    int rounds = 3_000;
    long start = System.nanoTime();
    for (int round = 0; round < rounds; round++) {
      silence(random, round, prefix);
      int kind = round % 3; // default dispatcher, pinned threads, balancing pool in turn
      int messages = 1 + random.nextInt(kind == 0 ? 32 : 8);
      int hops = kind == 2 ? 0 : random.nextInt(3); // a balancing pool's routees have no ring
      CountDownLatch latch = new CountDownLatch(messages * (hops + 1));
      for (int m = 0; m < messages; m++) {
        ActorRef to =
            kind == 0 ? onPool.get(random.nextInt(onPool.size()))
                : kind == 1 ? pinned.get(random.nextInt(pinned.size()))
                : balancing;
        to.tell(new Hit(latch, hops), ActorRef.noSender());
      }
      expected += messages * (hops + 1L);
      if (!latch.await(10, TimeUnit.SECONDS)) {
        fail("round " + round + " (seed " + seed + ", dispatcher kind " + kind + "): "
            + latch.getCount() + " deliveries missing after 10 s (lost wake-up?); threads: "
            + states(prefix));
      }
    }
    assertEquals(expected, delivered.sum(), "deliveries (seed " + seed + ")");
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertTrue(ms < 45_000, rounds + " rounds took " + ms + " ms");
  }

  /** Actors of one dispatcher whose hits travel around a ring (each knows the next). */
  private static List<ActorRef> ring(ActorSystem sys, LongAdder delivered, int n, String dispatcher)
      throws Exception {
    List<ActorRef> actors = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Props props = Props.create(Relay.class, delivered);
      actors.add(sys.actorOf(dispatcher == null ? props : props.withDispatcher(dispatcher)));
    }
    for (int i = 0; i < n; i++) {
      Patterns.ask(actors.get(i), actors.get((i + 1) % n), Duration.ofSeconds(10))
          .toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
    }
    return actors;
  }

  /** None, a spin of up to 50 µs, a park of up to 2 ms, or (every 100th) until all parked. */
  private static void silence(SplittableRandom random, int round, String prefix) {
    if (round % 100 == 99) {
      awaitAllParkedUntilWoken(prefix, "before round " + round);
      return;
    }
    switch (random.nextInt(3)) {
      case 0 -> { } // the next burst at once
      case 1 -> {
        long until = System.nanoTime() + random.nextInt(50_000);
        while (System.nanoTime() - until < 0) {
          Thread.onSpinWait();
        }
      }
      default -> LockSupport.parkNanos(random.nextInt(2_000_000)); // the silence itself
    }
  }

  /**
   * Waits (bounded) until every live thread of the system is parked without a deadline; the
   * lookout, if the work made one, gives up its role 50 ms after the last task, and the scheduler
   * sleeps without a deadline once its cancelled timers are unlinked.
   */
  private static void awaitAllParkedUntilWoken(String prefix, String when) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!allParkedUntilWoken(prefix)) {
      if (System.nanoTime() - deadline > 0) {
        fail("every thread parked without a deadline " + when + ", within 10 s: " + states(prefix));
      }
      LockSupport.parkNanos(1_000_000);
    }
  }

  private static boolean allParkedUntilWoken(String prefix) {
    boolean any = false;
    for (ThreadInfo info : threads(prefix)) {
      if (info.getThreadState() != Thread.State.WAITING) {
        return false;
      }
      any = true;
    }
    return any;
  }

  private static String states(String prefix) {
    TreeMap<String, Thread.State> states = new TreeMap<>();
    for (ThreadInfo info : threads(prefix)) {
      states.put(info.getThreadName(), info.getThreadState());
    }
    return states.toString();
  }

  private static List<ThreadInfo> threads(String prefix) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    List<ThreadInfo> out = new ArrayList<>();
    for (ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith(prefix)) {
        out.add(info);
      }
    }
    return out;
  }

  private static long cpuNanos(ThreadMXBean mx, String prefix) {
    long sum = 0;
    for (ThreadInfo info : threads(prefix)) {
      long t = mx.getThreadCpuTime(info.getThreadId());
      if (t < 0) {
        return -1;
      }
      sum += t;
    }
    return sum;
  }
}
