package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Inbox;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Inbox}: a thread that is no actor sends with the inbox as sender and takes the replies;
 * a receive with nothing there times out; a watched actor's end arrives as {@link Terminated};
 * past its capacity messages go to the dead letters and the kept ones stay in order; several
 * threads take each message once; a closed inbox's messages go to the dead letters.
 */
class InboxTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** Answers every message with "echo: " and it. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell("echo: " + m, getSelf())).build();
    }
  }

  private ActorRef echo() {
    return troupe.system().actorOf(Props.create(Echo.class));
  }

  @Test
  void aThreadSendsWithTheInboxAsSenderAndTakesTheRepliesInOrder() throws Exception {
    try (Inbox inbox = Inbox.create(troupe.system())) {
      ActorRef echo = echo();
      for (int i = 0; i < 10; i++) {
        inbox.send(echo, i);
      }
      for (int i = 0; i < 10; i++) {
        assertEquals("echo: " + i, inbox.receive(WAIT));
      }
      assertTrue(inbox.getRef().path().toStringWithoutAddress().startsWith("/system/inbox-"), inbox.getRef().path().toString());
    }
  }

  @Test
  void aReceiveWithNothingThereTimesOut() throws Exception {
    try (Inbox inbox = Inbox.create(troupe.system())) {
      long start = System.nanoTime();
      TimeoutException e = assertThrows(TimeoutException.class, () -> inbox.receive(Duration.ofMillis(100)));
      assertTrue(System.nanoTime() - start >= Duration.ofMillis(100).toNanos(), "waited the whole bound");
      assertTrue(e.getMessage().contains("within PT0.1S"), e.getMessage());
      assertThrows(TimeoutException.class, () -> inbox.receive(Duration.ZERO));
    }
  }

  @Test
  void aWatchedActorsEndArrivesAsTerminated() throws Exception {
    try (Inbox inbox = Inbox.create(troupe.system())) {
      ActorRef echo = echo();
      inbox.watch(echo);
      inbox.send(echo, "before");
      assertEquals("echo: before", inbox.receive(WAIT));
      echo.tell(PoisonPill.getInstance(), ActorRef.noSender());
      Terminated t = (Terminated) inbox.receive(WAIT);
      assertEquals(echo, t.actor());
    }
  }

  @Test
  void pastItsCapacityMessagesGoToTheDeadLettersAndTheKeptOnesStayInOrder() throws Exception {
    ActorSystem system = troupe.system();
    TestKit dead = new TestKit(system);
    system.getEventStream().subscribe(dead.getRef(), DeadLetter.class);
    try (Inbox inbox = Inbox.create(system, 3)) {
      for (int i = 0; i < 5; i++) {
        inbox.getRef().tell("m" + i, ActorRef.noSender());
      }
      Set<Object> dropped = new HashSet<>();
      while (dropped.size() < 2) {
        DeadLetter d = (DeadLetter) dead.fishForMessage(WAIT, "the two messages past the capacity",
            m -> m instanceof DeadLetter l && l.message() instanceof String s && s.startsWith("m"));
        dropped.add(d.message());
      }
      assertEquals(Set.of("m3", "m4"), dropped);
      assertEquals(List.of("m0", "m1", "m2"), List.of(inbox.receive(WAIT), inbox.receive(WAIT), inbox.receive(WAIT)));
    }
    assertThrows(IllegalArgumentException.class, () -> Inbox.create(system, 0));
  }

  @Test
  void severalThreadsTakeEachMessageOnce() throws Exception {
    int threads = 4;
    int messages = 4000;
    try (Inbox inbox = Inbox.create(troupe.system(), messages)) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      AtomicInteger taken = new AtomicInteger();
      try {
        List<Future<List<Object>>> takers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          takers.add(pool.submit(() -> {
            List<Object> mine = new ArrayList<>();
            long deadline = System.nanoTime() + WAIT.toNanos() * 2;
            while (taken.get() < messages && System.nanoTime() < deadline) {
              try {
                mine.add(inbox.receive(Duration.ofMillis(50)));
                taken.incrementAndGet();
              } catch (TimeoutException quiet) {
                // look at the count again
              }
            }
            return mine;
          }));
        }
        for (int i = 0; i < messages; i++) {
          inbox.getRef().tell(i, ActorRef.noSender());
        }
        List<Object> all = new ArrayList<>();
        for (Future<List<Object>> f : takers) {
          List<Object> mine = f.get(WAIT.toSeconds() * 3, TimeUnit.SECONDS);
          for (int k = 1; k < mine.size(); k++) {
            assertTrue((Integer) mine.get(k - 1) < (Integer) mine.get(k), "one thread takes them in order");
          }
          all.addAll(mine);
        }
        Collections.sort(all, (a, b) -> Integer.compare((Integer) a, (Integer) b));
        List<Object> expected = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
          expected.add(i);
        }
        assertEquals(expected, all, "each message taken once");
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void aClosedInboxsMessagesGoToTheDeadLetters() throws Exception {
    ActorSystem system = troupe.system();
    Inbox inbox = Inbox.create(system);
    TestKit watcher = new TestKit(system);
    watcher.watch(inbox.getRef());
    inbox.close();
    watcher.expectTerminated(WAIT, inbox.getRef());
    TestKit dead = new TestKit(system);
    system.getEventStream().subscribe(dead.getRef(), DeadLetter.class);
    inbox.getRef().tell("late", ActorRef.noSender());
    dead.fishForMessage(WAIT, "the dead letter of the closed inbox", m -> m instanceof DeadLetter d && "late".equals(d.message()));
  }
}
