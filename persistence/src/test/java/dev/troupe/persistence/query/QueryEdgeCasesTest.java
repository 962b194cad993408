package dev.troupe.persistence.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.query.polling.PollingReadJournal;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Edge cases of the polling read journal: the system ending during onSubscribe, the largest tag
 * offset, a journal that throws an Error, a live range that ends in deleted events.
 */
class QueryEdgeCasesTest {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();
  private final List<ActorSystem> systems = new ArrayList<>();

  @AfterEach
  void stop() {
    systems.forEach(TestKit::shutdownActorSystem);
  }

  private ActorSystem system() {
    Config config = ConfigFactory.parseString("""
        troupe.persistence.query.polling { refresh-interval = 50ms, max-buffer-size = 4 }
        erroring { class = "dev.troupe.persistence.query.ErrorJournal" }
        erroring-query { class = "dev.troupe.persistence.query.polling.PollingReadJournal", write-plugin = erroring }
        """).withFallback(ConfigFactory.load());
    ActorSystem s = ActorSystem.create("review-" + SYSTEMS.incrementAndGet(), config);
    systems.add(s);
    return s;
  }

  private static PollingReadJournal queries(ActorSystem s, String id) {
    return PersistenceQuery.get(s).getReadJournalFor(PollingReadJournal.class, id);
  }

  /** Rules 1.3 and 1.9: the system's end signals onError only once onSubscribe has returned. */
  @Test
  void theSystemsEndDoesNotSignalWhileOnSubscribeRuns() throws Exception {
    ActorSystem s = system();
    PollingReadJournal q = queries(s, PollingReadJournal.IDENTIFIER);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch errored = new CountDownLatch(1);
    AtomicBoolean inOnSubscribe = new AtomicBoolean();
    AtomicReference<String> overlap = new AtomicReference<>();
    Flow.Subscriber<EventEnvelope> sub = new Flow.Subscriber<>() {
      @Override
      public void onSubscribe(Flow.Subscription subscription) {
        inOnSubscribe.set(true);
        entered.countDown();
        try {
          release.await(10, TimeUnit.SECONDS); // a slow onSubscribe (or one descheduled here)
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        inOnSubscribe.set(false);
      }

      @Override
      public void onNext(EventEnvelope item) {}

      @Override
      public void onError(Throwable t) {
        if (inOnSubscribe.get()) {
          overlap.set("onError(" + t + ") on " + Thread.currentThread().getName() + " while onSubscribe runs");
        }
        errored.countDown();
      }

      @Override
      public void onComplete() {}
    };
    Thread subscriber = new Thread(() -> q.eventsByPersistenceId("p", 0, Long.MAX_VALUE).subscribe(sub));
    subscriber.start();
    assertTrue(entered.await(10, TimeUnit.SECONDS));
    s.terminate();
    s.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
    errored.await(2, TimeUnit.SECONDS);
    release.countDown();
    subscriber.join(10_000);
    assertTrue(errored.await(10, TimeUnit.SECONDS), "onError at all");
    assertNull(overlap.get());
  }

  /** A query by tag from the largest offset finds nothing (no overflow past Long.MAX_VALUE). */
  @Test
  void aTagQueryFromTheLargestOffsetFindsNothingRatherThanFailing() throws Exception {
    ActorSystem s = system();
    Journal journal = Persistence.get(s).journalFor("");
    assertEquals(List.of(Optional.empty()), journal.write(List.of(new AtomicWrite("p",
        List.of(new PersistentRepr("p", 1, "e1", 1, Set.of("t")))))).toCompletableFuture().get(10, TimeUnit.SECONDS));
    SubscriberProbe<EventEnvelope> probe = new SubscriberProbe<>();
    queries(s, PollingReadJournal.IDENTIFIER).currentEventsByTag("t", Offset.sequence(Long.MAX_VALUE)).subscribe(probe);
    probe.request(1).expectComplete(); // fails: onError(IndexOutOfBoundsException: Index -1 out of bounds for length 1)
  }

  /** An Error a journal throws from its call ends the query with onError (it is not the subscriber's). */
  @Test
  void aJournalThatThrowsAnErrorFailsTheQuery() throws Exception {
    ActorSystem s = system();
    SubscriberProbe<EventEnvelope> probe = new SubscriberProbe<>();
    queries(s, "erroring-query").eventsByPersistenceId("p", 0, Long.MAX_VALUE).subscribe(probe);
    probe.request(1);
    SubscriberProbe.Signal signal = probe.next("onError");  // fails: no signal within 10 s
    assertTrue(signal.error() instanceof NoClassDefFoundError, String.valueOf(signal));
  }

  /** A live query whose range ends in deleted events completes once every number in it is stored. */
  @Test
  void aLiveQueryWhoseRangeEndsInDeletedEventsCompletes() throws Exception {
    ActorSystem s = system();
    Journal journal = Persistence.get(s).journalFor("");
    List<PersistentRepr> reprs = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      reprs.add(new PersistentRepr("d", i, "e" + i, i));
    }
    journal.write(List.of(new AtomicWrite("d", reprs))).toCompletableFuture().get(10, TimeUnit.SECONDS);
    journal.deleteTo("d", 5).toCompletableFuture().get(10, TimeUnit.SECONDS);
    SubscriberProbe<EventEnvelope> probe = new SubscriberProbe<>();
    queries(s, PollingReadJournal.IDENTIFIER).eventsByPersistenceId("d", 1, 5).subscribe(probe);
    probe.request(10).expectComplete(); // fails: only polling, every 50 ms, forever
  }
}
