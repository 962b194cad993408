package dev.troupe.persistence.query;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.query.polling.PollingReadJournal;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.testkit.TestKit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowPublisherVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;

/**
 * The reactive-streams TCK (run by TestNG on the JUnit Platform) against the event queries of
 * {@link PollingReadJournal}: every publisher is a query of a fresh persistence id whose events
 * were stored first. Batches of 3 make the queries read the journal several times per stream.
 */
abstract class QueryTck extends FlowPublisherVerification<EventEnvelope> {
  /** More than any TCK test with a finite stream asks for, and a bound on the events written. */
  private static final long MAX_ELEMENTS = 1024;
  private static final AtomicInteger IDS = new AtomicInteger();

  ActorSystem system;
  PollingReadJournal queries;
  private ActorSystem ended;

  QueryTck() {
    // Expected signals are waited for up to 5 s, polled every 10 ms (only a failing test waits
    // that long); "no signal" checks wait 50 ms; a cancelled subscriber must be collectable 1 s
    // after its cancel (the TCK sleeps that long, then collects: the subscription drops it at once,
    // but a drain running on another thread holds it until its loop ends, which a busy machine may
    // delay by a few hundred ms).
    super(new TestEnvironment(5_000, 50, 10), 1_000);
  }

  @BeforeClass
  public void startSystem() {
    system = ActorSystem.create("query-tck-" + IDS.incrementAndGet(), ConfigFactory.parseString(
        "troupe.persistence.query.polling.max-buffer-size = 3\n"
            + "troupe.persistence.query.polling.refresh-interval = 50ms\n" + journalConfig())
        .withFallback(ConfigFactory.load()));
    queries = PersistenceQuery.get(system).getReadJournalFor(PollingReadJournal.class, PollingReadJournal.IDENTIFIER);
    ended = ActorSystem.create("query-tck-ended-" + IDS.incrementAndGet());
    PollingReadJournal endedQueries =
        PersistenceQuery.get(ended).getReadJournalFor(PollingReadJournal.class, PollingReadJournal.IDENTIFIER);
    endedPublisher = endedQueries.eventsByPersistenceId("none", 0, Long.MAX_VALUE);
    TestKit.shutdownActorSystem(ended);
  }

  private Flow.Publisher<EventEnvelope> endedPublisher;

  @AfterClass
  public void stopSystem() throws Exception {
    if (system != null) {
      TestKit.shutdownActorSystem(system);
    }
    afterStop();
  }

  /** Cleans up after the system stopped; nothing by default. */
  void afterStop() throws Exception {}

  /** @return configuration of the journal the queries read (the in-memory one unless overridden) */
  String journalConfig() {
    return "";
  }

  @Override
  public long maxElementsFromPublisher() {
    return MAX_ELEMENTS;
  }

  /**
   * @param elements how many events to store
   * @return a fresh persistence id with that many events
   */
  String storedEvents(long elements) {
    String id = "tck-" + IDS.incrementAndGet();
    if (elements > 0) {
      List<PersistentRepr> events = new ArrayList<>();
      for (long i = 1; i <= elements; i++) {
        events.add(new PersistentRepr(id, i, "event-" + i, 0));
      }
      try {
        Persistence.get(system).journalFor("").write(List.of(new AtomicWrite(id, events)))
            .toCompletableFuture().get(5, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    return id;
  }

  /** A query of a system that has terminated: it fails every subscriber at once, asked or not. */
  @Override
  public Flow.Publisher<EventEnvelope> createFailedFlowPublisher() {
    return endedPublisher;
  }
}
