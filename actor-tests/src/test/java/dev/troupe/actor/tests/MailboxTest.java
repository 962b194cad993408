package dev.troupe.actor.tests;

import static dev.troupe.actor.tests.RuntimeFixtures.TIMEOUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Mailbox guarantees: per-pair ordering, one thread at a time, happens-before, system messages first, bounds. */
class MailboxTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** A dispatcher {@code test-dispatcher} on {@code executor} with {@code threads} threads. */
  static String dispatcherConfig(String id, String executor, int threads, int throughput) {
    return id + " {\n"
        + "  executor = " + executor + "\n"
        + "  throughput = " + throughput + "\n"
        + "  affinity-pool-executor { parallelism-min = " + threads + ", parallelism-max = " + threads + " }\n"
        + "  fork-join-executor { parallelism-min = " + threads + ", parallelism-max = " + threads + " }\n"
        + "  thread-pool-executor { core-pool-size-min = " + threads + ", core-pool-size-max = " + threads
        + ", max-pool-size-min = " + threads + ", max-pool-size-max = " + threads + " }\n"
        + "}\n";
  }

  record Seq(int sender, int n) {}

  /** Checks that each sender's sequence numbers arrive strictly increasing. */
  static final class OrderChecker extends UntypedActor {
    private final int[] last;
    private final int expectedTotal;
    private final CountDownLatch done;
    private final AtomicReference<String> violation;
    private int total;

    OrderChecker(Integer senders, Integer expectedTotal, CountDownLatch done, AtomicReference<String> violation) {
      this.last = new int[senders];
      java.util.Arrays.fill(last, -1);
      this.expectedTotal = expectedTotal;
      this.done = done;
      this.violation = violation;
    }

    @Override
    public void onReceive(Object message) {
      Seq s = (Seq) message;
      if (s.n() != last[s.sender()] + 1) {
        violation.compareAndSet(null, "sender " + s.sender() + ": got " + s.n() + " after " + last[s.sender()]);
      }
      last[s.sender()] = s.n();
      if (++total == expectedTotal) {
        done.countDown();
      }
    }
  }

  private static List<Thread> startSenders(int senders, int perSender, java.util.function.BiConsumer<Integer, Integer> send) {
    List<Thread> threads = new ArrayList<>();
    CountDownLatch go = new CountDownLatch(1);
    for (int i = 0; i < senders; i++) {
      int id = i;
      Thread t = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int n = 0; n < perSender; n++) {
          send.accept(id, n);
        }
      }, "test-sender-" + i);
      t.start();
      threads.add(t);
    }
    go.countDown();
    return threads;
  }

  private static void join(List<Thread> threads) throws InterruptedException {
    for (Thread t : threads) {
      t.join(TIMEOUT.toMillis());
      assertFalse(t.isAlive(), "sender thread " + t.getName() + " did not finish");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"affinity-pool-executor", "fork-join-executor", "thread-pool-executor"})
  void messagesFromOneSenderArriveInOrderWithSeveralConcurrentSenders(String executor, TestKit kit) throws Exception {
    ActorSystem sys = troupe.createSystem(dispatcherConfig("test-dispatcher", executor, 4, 5));
    int senders = 4;
    int perSender = 100_000;
    CountDownLatch done = new CountDownLatch(1);
    AtomicReference<String> violation = new AtomicReference<>();
    ActorRef checker = sys.actorOf(
        Props.create(OrderChecker.class, senders, senders * perSender, done, violation)
            .withDispatcher("test-dispatcher"));
    join(startSenders(senders, perSender, (id, n) -> checker.tell(new Seq(id, n), ActorRef.noSender())));
    kit.awaitCond("all " + senders * perSender + " messages to arrive", () -> done.getCount() == 0);
    assertNull(violation.get(), "per-sender order violated");
  }

  /** Fails loudly if two threads are ever inside it at once; counts with a plain field. */
  static final class ExclusiveCounter extends UntypedActor {
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger overlaps;
    private final java.util.Set<String> threads;
    private long count; // plain on purpose: consecutive messages must see each other's writes

    ExclusiveCounter(AtomicInteger overlaps, java.util.Set<String> threads) {
      this.overlaps = overlaps;
      this.threads = threads;
    }

    @Override
    public void onReceive(Object message) {
      if (inFlight.incrementAndGet() != 1) {
        overlaps.incrementAndGet();
      }
      try {
        if (message.equals("count")) {
          getSender().tell(count, getSelf());
        } else {
          count++;
          threads.add(Thread.currentThread().getName());
        }
      } finally {
        inFlight.decrementAndGet();
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"affinity-pool-executor", "fork-join-executor", "thread-pool-executor"})
  void anActorIsNeverRunByTwoThreadsAtOnceAndSeesItsOwnPlainWrites(String executor, TestKit kit) throws Exception {
    // throughput 1: the mailbox is handed back after every message, maximizing thread changes
    ActorSystem sys = troupe.createSystem(dispatcherConfig("test-dispatcher", executor, 4, 1));
    AtomicInteger overlaps = new AtomicInteger();
    java.util.Set<String> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
    ActorRef target = sys.actorOf(
        Props.create(ExclusiveCounter.class, overlaps, threads).withDispatcher("test-dispatcher"));
    // many senders: 8 threads, and 8 actors on the same dispatcher that relay to the target
    List<ActorRef> relays = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      relays.add(sys.actorOf(TestActors.relayActorProps(target).withDispatcher("test-dispatcher")));
    }
    int senders = 8;
    int perSender = 15_000;
    join(startSenders(senders, perSender, (id, n) ->
        (n % 2 == 0 ? target : relays.get(id)).tell(n, ActorRef.noSender())));
    long expected = (long) senders * perSender;
    // the relays may still be forwarding: poll the count until everything arrived
    AtomicReference<Object> last = new AtomicReference<>();
    kit.awaitCond(Duration.ofSeconds(20), Duration.ofMillis(5), "the plain counter to reach " + expected + " (last " + last + ")", () -> {
      last.set(kit.awaitResult(Patterns.ask(target, "count", TIMEOUT)));
      return Long.valueOf(expected).equals(last.get());
    });
    assertEquals(0, overlaps.get(), "the actor ran on two threads at once");
    assertTrue(threads.stream().allMatch(n -> n.contains("-test-dispatcher-")),
        "ran on a thread of another executor: " + threads);
  }

  /** Blocks on a latch while processing "block"; counts the other messages. */
  static final class Blocker extends UntypedActor {
    private final CountDownLatch entered;
    private final CountDownLatch release;
    private final AtomicInteger processed;
    private final CountDownLatch stopped;

    Blocker(CountDownLatch entered, CountDownLatch release, AtomicInteger processed, CountDownLatch stopped) {
      this.entered = entered;
      this.release = release;
      this.processed = processed;
      this.stopped = stopped;
    }

    @Override
    public void onReceive(Object message) throws Exception {
      if ("block".equals(message)) {
        entered.countDown();
        assertTrue(release.await(10, TimeUnit.SECONDS), "blocker was never released");
      } else {
        processed.incrementAndGet();
      }
    }

    @Override
    public void postStop() {
      stopped.countDown();
    }
  }

  private static final String BLOCKING = "blocking-dispatcher { executor = thread-pool-executor\n"
      + " thread-pool-executor { core-pool-size-min = 2, core-pool-size-max = 2, max-pool-size-min = 2, max-pool-size-max = 2 } }\n";

  @Test
  void aStopIsProcessedBeforeTheUserMessagesAlreadyQueued(TestKit kit) {
    ActorSystem sys = troupe.createSystem(BLOCKING);
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch stopped = new CountDownLatch(1);
    AtomicInteger processed = new AtomicInteger();
    ActorRef a = sys.actorOf(Props.create(Blocker.class, entered, release, processed, stopped)
        .withDispatcher("blocking-dispatcher"));
    a.tell("block", ActorRef.noSender());
    kit.awaitCond("the actor to start blocking", () -> entered.getCount() == 0);
    for (int i = 0; i < 1000; i++) {
      a.tell(i, ActorRef.noSender());
    }
    sys.stop(a);
    release.countDown();
    kit.awaitCond("postStop", () -> stopped.getCount() == 0);
    assertEquals(0, processed.get(), "user messages queued before the stop were processed after it");
    for (int i = 0; i < 1000; i++) {
      DeadLetter d = dead.expectMsgClass(DeadLetter.class);
      assertEquals(i, d.message(), "dead letters out of order");
      assertEquals(a, d.recipient());
    }
  }

  @Test
  void aFullBoundedMailboxWithoutPushTimeoutSendsTheOverflowToDeadLetters(TestKit kit) {
    ActorSystem sys = troupe.createSystem(BLOCKING
        + "small-mailbox { mailbox-type = \"dev.troupe.dispatch.BoundedMailbox\", mailbox-capacity = 10, mailbox-push-timeout-time = 0s }");
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger processed = new AtomicInteger();
    ActorRef a = sys.actorOf(Props.create(Blocker.class, entered, release, processed, new CountDownLatch(1))
        .withDispatcher("blocking-dispatcher").withMailbox("small-mailbox"));
    a.tell("block", ActorRef.noSender());
    kit.awaitCond("the actor to start blocking", () -> entered.getCount() == 0);
    for (int i = 0; i < 15; i++) {
      a.tell(i, ActorRef.noSender()); // never blocks: push timeout 0
    }
    for (int i = 10; i < 15; i++) {
      DeadLetter d = dead.expectMsgClass(DeadLetter.class);
      assertEquals(i, d.message(), "the overflow, in order, goes to dead letters");
      assertEquals(a, d.recipient());
    }
    release.countDown();
    kit.awaitCond("the 10 messages that fit to be processed", () -> processed.get() == 10);
    dead.expectNoMessage(Duration.ofMillis(100));
    assertEquals(10, processed.get());
  }

  @Test
  void aSenderBlockedOnAFullBoundedMailboxSucceedsOnceThereIsRoom(TestKit kit) {
    ActorSystem sys = troupe.createSystem(BLOCKING
        + "small-mailbox { mailbox-type = bounded, mailbox-capacity = 2, mailbox-push-timeout-time = 10s }");
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger processed = new AtomicInteger();
    ActorRef a = sys.actorOf(Props.create(Blocker.class, entered, release, processed, new CountDownLatch(1))
        .withDispatcher("blocking-dispatcher").withMailbox("small-mailbox"));
    a.tell("block", ActorRef.noSender());
    kit.awaitCond("the actor to start blocking", () -> entered.getCount() == 0);
    a.tell(1, ActorRef.noSender());
    a.tell(2, ActorRef.noSender());
    CountDownLatch sent = new CountDownLatch(1);
    Thread sender = new Thread(() -> {
      a.tell(3, ActorRef.noSender()); // blocks: the mailbox is full
      sent.countDown();
    }, "blocked-sender");
    sender.start();
    kit.awaitCond("the sender to block on the full mailbox",
        () -> sender.getState() == Thread.State.TIMED_WAITING || sender.getState() == Thread.State.WAITING);
    assertEquals(1, sent.getCount(), "the send into a full mailbox returned before there was room");
    release.countDown();
    kit.awaitCond("the blocked send to complete", () -> sent.getCount() == 0);
    kit.awaitCond("all three messages to be processed", () -> processed.get() == 3);
    dead.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void anUnknownMailboxIdIsAConfigurationExceptionNamingTheId(ActorSystem sys) {
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(TestActors.relayActorProps(sys.deadLetters()).withMailbox("no-such-mailbox")));
    assertTrue(e.getMessage().contains("no-such-mailbox"), e.getMessage());
  }

  @Test
  void aMalformedMailboxCapacityIsAConfigurationExceptionNamingTheKey() {
    ActorSystem sys = troupe.createSystem(
        "bad-mailbox { mailbox-type = bounded, mailbox-capacity = lots, mailbox-push-timeout-time = 0s }");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(TestActors.relayActorProps(sys.deadLetters()).withMailbox("bad-mailbox")));
    assertTrue(e.getMessage().contains("bad-mailbox.mailbox-capacity"), e.getMessage());
  }
}
