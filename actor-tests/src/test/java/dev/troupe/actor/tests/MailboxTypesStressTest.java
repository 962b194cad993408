package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.dispatch.BoundedStablePriorityMailbox;
import dev.troupe.dispatch.ControlMessage;
import dev.troupe.dispatch.UnboundedStablePriorityMailbox;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many sender threads, one consumer: the control-aware and stable priority mailboxes lose nothing,
 * deliver nothing twice, keep each sender's messages of one rank in send order at any time, and,
 * for each batch sent in full while the actor was blocked, deliver the whole batch in rank order.
 */
class MailboxTypesStressTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  private static final int SENDERS = 8;
  private static final int RANKS = 4;
  private static final Duration BOUND = Duration.ofSeconds(60);

  /** A stamped message: its sender thread, its index in that sender's sequence, and its rank. */
  interface Stamped {
    int sender();

    int n();

    int rank();
  }

  /** An ordinary message; its rank is its priority in a priority mailbox, 1 in a control-aware one. */
  record Msg(int sender, int n, int rank) implements Stamped {}

  /** A control message: rank 0. */
  record Ctl(int sender, int n) implements Stamped, ControlMessage {
    @Override
    public int rank() {
      return 0;
    }
  }

  /** Ends a batch; ranks after every stamped message. */
  record EndOfBatch(CountDownLatch checked) {}

  /** Makes the checker wait until released. */
  record Block(CountDownLatch entered, CountDownLatch release) {}

  static int rank(Object m) {
    return m instanceof Stamped s ? s.rank() : Integer.MAX_VALUE;
  }

  /** The unbounded priority mailbox of the stress test. */
  public static final class ByRank extends UnboundedStablePriorityMailbox {
    public ByRank() {
      super(Comparator.comparingInt(MailboxTypesStressTest::rank));
    }
  }

  /** The bounded priority mailbox of the stress test. */
  public static final class BoundedByRank extends BoundedStablePriorityMailbox {
    public BoundedByRank() {
      super(Comparator.comparingInt(MailboxTypesStressTest::rank));
    }
  }

  /** Checks every invariant as messages arrive; the first violation is kept. */
  static final class Checker extends UntypedActor {
    private final BitSet[] seen = new BitSet[SENDERS];
    private final int[][] last = new int[SENDERS][RANKS];
    private final AtomicReference<String> violation;
    private final CountDownLatch all;
    private final int expected;
    private final List<Stamped> batch = new ArrayList<>();
    private int total;

    Checker(AtomicReference<String> violation, CountDownLatch all, Integer expected) {
      this.violation = violation;
      this.all = all;
      this.expected = expected;
      for (int s = 0; s < SENDERS; s++) {
        seen[s] = new BitSet();
        java.util.Arrays.fill(last[s], -1);
      }
    }

    private void fail(String what) {
      violation.compareAndSet(null, what);
    }

    @Override
    public void onReceive(Object message) throws Exception {
      if (message instanceof Stamped m) {
        if (seen[m.sender()].get(m.n())) {
          fail("delivered twice: " + m);
        }
        seen[m.sender()].set(m.n());
        if (m.n() <= last[m.sender()][m.rank()]) {
          fail("sender " + m.sender() + " rank " + m.rank() + ": " + m.n() + " after " + last[m.sender()][m.rank()]);
        }
        last[m.sender()][m.rank()] = m.n();
        batch.add(m);
        if (++total == expected) {
          all.countDown();
        }
      } else if (message instanceof Block b) {
        b.entered().countDown();
        if (!b.release().await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
          fail("never released");
        }
        batch.clear();
      } else if (message instanceof EndOfBatch e) {
        for (int i = 1; i < batch.size(); i++) {
          if (batch.get(i).rank() < batch.get(i - 1).rank()) {
            fail("a batch sent while blocked came out of rank order: " + batch.get(i - 1) + " then " + batch.get(i));
            break;
          }
        }
        batch.clear();
        e.checked().countDown();
      }
    }
  }

  private static final String CONFIG = ""
      + "stress-dispatcher { executor = thread-pool-executor, throughput = 5\n"
      + "  thread-pool-executor { core-pool-size-min = 2, core-pool-size-max = 2, max-pool-size-min = 2, max-pool-size-max = 2 } }\n"
      + "control-mailbox { mailbox-type = unbounded-control-aware }\n"
      + "prio-mailbox { mailbox-type = \"" + ByRank.class.getName() + "\" }\n"
      + "bounded-prio-mailbox { mailbox-type = \"" + BoundedByRank.class.getName() + "\"\n"
      + "  mailbox-capacity = 64, mailbox-push-timeout-time = 30s }\n";

  /** Sends {@code perSender} messages from each of {@link #SENDERS} threads at once, numbering from {@code from}. */
  private static void sendFromManyThreads(ActorRef target, String mailbox, int from, int perSender)
      throws InterruptedException {
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int s = 0; s < SENDERS; s++) {
      int sender = s;
      Thread t = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int n = from; n < from + perSender; n++) {
          Object m = mailbox.equals("control-mailbox")
              ? (random.nextInt(4) == 0 ? new Ctl(sender, n) : new Msg(sender, n, 1))
              : new Msg(sender, n, random.nextInt(RANKS));
          target.tell(m, ActorRef.noSender());
        }
      }, "stress-sender-" + s);
      t.start();
      threads.add(t);
    }
    go.countDown();
    for (Thread t : threads) {
      t.join(BOUND.toMillis());
      assertFalse(t.isAlive(), t.getName() + " did not finish its sends");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"control-mailbox", "prio-mailbox", "bounded-prio-mailbox"})
  void manySendersLoseNothingDuplicateNothingAndKeepTheOrderThatIsPromised(String mailbox) throws Exception {
    ActorSystem sys = troupe.createSystem(CONFIG);
    TestKit dead = new TestKit(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    boolean bounded = mailbox.startsWith("bounded");
    int freeRunning = 20_000;
    int rounds = bounded ? 0 : 10; // a bounded mailbox cannot hold a whole batch while blocked
    int perRound = 500;
    int expected = SENDERS * (freeRunning + rounds * perRound);
    AtomicReference<String> violation = new AtomicReference<>();
    CountDownLatch all = new CountDownLatch(1);
    ActorRef checker = sys.actorOf(Props.create(Checker.class, violation, all, expected)
        .withDispatcher("stress-dispatcher").withMailbox(mailbox));

    // senders race with the consumer (and, bounded, wait for room in a 64-message mailbox)
    sendFromManyThreads(checker, mailbox, 0, freeRunning);

    // batches sent in full while the checker is blocked come out in rank order
    for (int r = 0; r < rounds; r++) {
      CountDownLatch entered = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      checker.tell(new Block(entered, release), ActorRef.noSender());
      assertTrue(entered.await(BOUND.toSeconds(), TimeUnit.SECONDS), "round " + r + ": the checker never blocked");
      sendFromManyThreads(checker, mailbox, freeRunning + r * perRound, perRound);
      CountDownLatch checked = new CountDownLatch(1);
      checker.tell(new EndOfBatch(checked), ActorRef.noSender());
      release.countDown();
      assertTrue(checked.await(BOUND.toSeconds(), TimeUnit.SECONDS), "round " + r + ": the batch never ended");
      assertNull(violation.get(), "round " + r);
    }
    assertTrue(all.await(BOUND.toSeconds(), TimeUnit.SECONDS), "not all " + expected + " messages arrived");
    assertNull(violation.get());
    dead.expectNoMessage(Duration.ofMillis(100));
    assertEquals(0, all.getCount());
  }
}
