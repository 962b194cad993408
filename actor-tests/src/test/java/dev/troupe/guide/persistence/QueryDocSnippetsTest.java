package dev.troupe.guide.persistence;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.persistence.query.EventEnvelope;
import dev.troupe.persistence.query.PersistenceQuery;
import dev.troupe.persistence.query.polling.PollingReadJournal;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The query blocks of {@code docs/persistence.md}, compiled and run: a read model that follows the
 * counter of {@link PersistenceDocSnippetsTest} through a live query.
 */
@Timeout(60)
class QueryDocSnippetsTest {
  private final ActorSystem system = ActorSystem.create("query-docs", ConfigFactory.parseString(
      "troupe.persistence.query.polling.refresh-interval = 100ms").withFallback(ConfigFactory.load()));

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  // tag::persistence-query[]
  /** A read model: the running total of one counter, kept up to date from its events. */
  static final class Totals implements Flow.Subscriber<EventEnvelope> {
    private static final int BATCH = 100;
    private Flow.Subscription subscription;
    private int left;
    volatile long total;
    volatile long upTo;                        // the last sequence number applied: resume after it

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      left = BATCH;
      s.request(BATCH);                        // the query reads no more than asked for
    }

    @Override
    public void onNext(EventEnvelope e) {
      if (e.event() instanceof PersistenceDocSnippetsTest.Added added) {
        total += added.amount();
      }
      upTo = e.sequenceNr();
      if (--left == 0) {
        left = BATCH;
        subscription.request(BATCH);
      }
    }

    @Override
    public void onError(Throwable t) {}        // a failed journal call, or the system's end

    @Override
    public void onComplete() {}                // only at the end of the range asked for
  }

  void follow(ActorSystem system, Totals totals) {
    PollingReadJournal queries = PersistenceQuery.get(system)
        .getReadJournalFor(PollingReadJournal.class, PollingReadJournal.IDENTIFIER);
    queries.eventsByPersistenceId("counter-7", 0, Long.MAX_VALUE)   // live: goes on with new events
        .subscribe(totals);
  }
  // end::persistence-query[]

  @Test
  void theReadModelFollowsTheCounter() throws Exception {
    Totals totals = new Totals();
    follow(system, totals);
    ActorRef counter = system.actorOf(Props.create(PersistenceDocSnippetsTest.Counter.class,
        () -> new PersistenceDocSnippetsTest.Counter("7")));
    for (int i = 1; i <= 150; i++) {
      counter.tell(new PersistenceDocSnippetsTest.Add(i), ActorRef.noSender());
    }
    long want = 150L * 151 / 2;
    new TestKit(system).awaitCond(Duration.ofSeconds(20), Duration.ofMillis(20),
        "the read model's total after 150 additions", () -> totals.total == want && totals.upTo == 150);
  }
}
