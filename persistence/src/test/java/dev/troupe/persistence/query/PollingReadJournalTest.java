package dev.troupe.persistence.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.persistence.AbstractPersistentActor;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.query.javadsl.CurrentEventsByPersistenceIdQuery;
import dev.troupe.persistence.query.javadsl.ReadJournal;
import dev.troupe.persistence.query.polling.PollingReadJournal;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Persistence queries over the journal SPI: what a live and a current query hand over and when
 * they end, that they read only what their subscriber asked for, in batches, that cancelling stops
 * the polling, the ids, failures, the system's end, settings, and the file journal.
 */
class PollingReadJournalTest {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();
  private static final Duration QUIET = Duration.ofMillis(250); // five refresh intervals

  private final List<ActorSystem> systems = new ArrayList<>();
  private ActorSystem system;
  private PollingReadJournal queries;

  @TempDir
  Path dir;

  @BeforeEach
  void start() {
    system = system("");
    queries = PersistenceQuery.get(system).getReadJournalFor(PollingReadJournal.class, PollingReadJournal.IDENTIFIER);
  }

  @AfterEach
  void stop() {
    systems.forEach(TestKit::shutdownActorSystem);
  }

  private ActorSystem system(String hocon) {
    Config config = ConfigFactory.parseString(hocon + """

        troupe.persistence.query.polling { refresh-interval = 50ms, max-buffer-size = 4 }
        counting { class = "dev.troupe.persistence.query.CountingJournal" }
        counting-query { class = "dev.troupe.persistence.query.polling.PollingReadJournal", write-plugin = counting }
        """).withFallback(ConfigFactory.load());
    ActorSystem s = ActorSystem.create("query-" + SYSTEMS.incrementAndGet(), config);
    systems.add(s);
    return s;
  }

  /** Stores events numbered from {@code from} through the SPI, as a persistent actor would. */
  private static void store(Journal journal, String id, long from, Object... events) throws Exception {
    List<PersistentRepr> reprs = new ArrayList<>();
    for (Object e : events) {
      reprs.add(new PersistentRepr(id, from + reprs.size(), e, 1000 + from + reprs.size()));
    }
    assertEquals(List.of(java.util.Optional.empty()),
        journal.write(List.of(new AtomicWrite(id, reprs))).toCompletableFuture().get(10, TimeUnit.SECONDS));
  }

  private Journal journal() {
    return Persistence.get(system).journalFor("");
  }

  private static List<Object> events(List<EventEnvelope> got) {
    return got.stream().map(EventEnvelope::event).toList();
  }

  private static List<Long> seqNrs(List<EventEnvelope> got) {
    return got.stream().map(EventEnvelope::sequenceNr).toList();
  }

  /** Persists each string it is sent and answers "ok". */
  static final class Recorder extends AbstractPersistentActor {
    private final String id;

    Recorder(String id) {
      this.id = id;
    }

    @Override
    public String persistenceId() {
      return id;
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder().matchAny(e -> {}).build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(String.class, s -> persist(s, e -> getSender().tell("ok", getSelf())))
          .build();
    }
  }

  @Test
  void aLiveQueryHandsOverWhatIsStoredThenWhatAPersistentActorStoresLater() throws Exception {
    store(journal(), "recorder", 1, "a", "b");
    SubscriberProbe<EventEnvelope> probe = new SubscriberProbe<>();
    queries.eventsByPersistenceId("recorder", 0, Long.MAX_VALUE).subscribe(probe);
    probe.request(Long.MAX_VALUE);
    List<EventEnvelope> first = probe.expectNext(2);
    assertEquals(List.of("a", "b"), events(first));
    assertEquals(new EventEnvelope(Offset.sequence(1), "recorder", 1, "a", 1001), first.get(0));

    TestProbe replies = new TestProbe(system);
    ActorRef recorder = system.actorOf(Props.create(Recorder.class, () -> new Recorder("recorder")));
    recorder.tell("c", replies.getRef());
    replies.expectMsg("ok");
    recorder.tell("d", replies.getRef());
    replies.expectMsg("ok");
    List<EventEnvelope> later = probe.expectNext(2);
    assertEquals(List.of("c", "d"), events(later));
    assertEquals(List.of(3L, 4L), seqNrs(later));
    assertEquals(new Sequence(4), later.get(1).offset());
    probe.cancel();
  }

  @Test
  void aCurrentQueryEndsWithTheEventsStoredWhenItStarted() throws Exception {
    store(journal(), "p", 1, "e1", "e2", "e3", "e4", "e5");
    SubscriberProbe<EventEnvelope> probe = new SubscriberProbe<>();
    queries.currentEventsByPersistenceId("p", 0, Long.MAX_VALUE).subscribe(probe);
    assertEquals(List.of(1L, 2L), seqNrs(probe.request(2).expectNext(2)));
    store(journal(), "p", 6, "e6", "e7", "e8");
    assertEquals(List.of(3L, 4L, 5L), seqNrs(probe.request(100).expectNext(3)));
    probe.expectComplete();

    SubscriberProbe<EventEnvelope> none = new SubscriberProbe<>();
    queries.currentEventsByPersistenceId("nobody", 0, Long.MAX_VALUE).subscribe(none);
    none.request(1).expectComplete();
  }

  @Test
  void queriesKeepToTheirRangeAndLeaveDeletedEventsOut() throws Exception {
    store(journal(), "r", 1, "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10");
    journal().deleteTo("r", 3).toCompletableFuture().get(10, TimeUnit.SECONDS);
    SubscriberProbe<EventEnvelope> current = new SubscriberProbe<>();
    queries.currentEventsByPersistenceId("r", 2, 7).subscribe(current);
    assertEquals(List.of(4L, 5L, 6L, 7L), seqNrs(current.request(Long.MAX_VALUE).expectNext(4)));
    current.expectComplete();

    SubscriberProbe<EventEnvelope> live = new SubscriberProbe<>();
    queries.eventsByPersistenceId("r", 9, 12).subscribe(live);
    assertEquals(List.of(9L, 10L), seqNrs(live.request(Long.MAX_VALUE).expectNext(2)));
    store(journal(), "r", 11, "e11", "e12", "e13");
    assertEquals(List.of(11L, 12L), seqNrs(live.expectNext(2)));
    live.expectComplete(); // at the end of its range, not at the end of the stored events
  }

  @Test
  void aQueryReadsOnlyWhatItsSubscriberAskedForInBatchesOfTheBufferSize() throws Exception {
    PollingReadJournal counted = PersistenceQuery.get(system).getReadJournalFor(PollingReadJournal.class, "counting-query");
    CountingJournal journal = CountingJournal.of(system);
    store(journal, "b", 1, "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10");

    SubscriberProbe<EventEnvelope> probe = new SubscriberProbe<>();
    counted.eventsByPersistenceId("b", 0, Long.MAX_VALUE).subscribe(probe);
    probe.expectNoSignal(QUIET);
    assertEquals(List.of(), journal.replayMax, "nothing is read before the subscriber asks");

    assertEquals(List.of(1L), seqNrs(probe.request(1).expectNext(1)));
    probe.expectNoSignal(QUIET);
    assertEquals(List.of(4L), journal.replayMax, "one read of one batch, three of it held for later");

    assertEquals(List.of(2L, 3L, 4L, 5L, 6L), seqNrs(probe.request(5).expectNext(5)));
    probe.expectNoSignal(QUIET);
    assertEquals(List.of(4L, 4L), journal.replayMax, "the next batch once the first was taken");

    assertEquals(List.of(7L, 8L, 9L, 10L), seqNrs(probe.request(Long.MAX_VALUE).expectNext(4)));
    assertTrue(journal.replayMax.stream().allMatch(m -> m == 4), "every read asks for one batch: " + journal.replayMax);
    probe.cancel();
  }

  @Test
  void aCancelledLiveQueryStopsPolling() throws Exception {
    PollingReadJournal counted = PersistenceQuery.get(system).getReadJournalFor(PollingReadJournal.class, "counting-query");
    CountingJournal journal = CountingJournal.of(system);
    SubscriberProbe<EventEnvelope> probe = new SubscriberProbe<>();
    counted.eventsByPersistenceId("c", 0, Long.MAX_VALUE).subscribe(probe);
    probe.request(Long.MAX_VALUE);
    store(journal, "c", 1, "e1");
    probe.expectNext();
    int before = journal.replayMax.size();
    assertTrue(before >= 1, "it polled");
    probe.cancel();
    int atCancel = journal.replayMax.size();
    probe.expectNoSignal(QUIET);
    store(journal, "c", 2, "e2");
    probe.expectNoSignal(QUIET);
    assertTrue(journal.replayMax.size() <= atCancel + 1,
        "at most a read already started when it was cancelled: " + atCancel + " then " + journal.replayMax.size());
  }

  @Test
  void persistenceIdsHandsOverEveryIdOnceAndLaterOnesAsTheyCome() throws Exception {
    store(journal(), "id-a", 1, "x");
    store(journal(), "id-b", 1, "x", "y");
    SubscriberProbe<String> current = new SubscriberProbe<>();
    queries.currentPersistenceIds().subscribe(current);
    assertEquals(Set.of("id-a", "id-b"), new HashSet<>(current.request(10).expectNext(2)));
    current.expectComplete();

    SubscriberProbe<String> live = new SubscriberProbe<>();
    queries.persistenceIds().subscribe(live);
    assertEquals(Set.of("id-a", "id-b"), new HashSet<>(live.request(Long.MAX_VALUE).expectNext(2)));
    store(journal(), "id-c", 1, "x");
    assertEquals("id-c", live.expectNext());
    store(journal(), "id-a", 2, "more");
    live.expectNoSignal(QUIET); // an id is handed over once
    live.cancel();
  }

  @Test
  void manyIdsAreHandedOverABatchAtATimeEachOnce() throws Exception {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 10; i++) { // more than two batches of max-buffer-size = 4
      store(journal(), "many-" + i, 1, "x");
      ids.add("many-" + i);
    }
    SubscriberProbe<String> current = new SubscriberProbe<>();
    queries.currentPersistenceIds().subscribe(current);
    Set<String> got = new HashSet<>(current.request(3).expectNext(3));
    current.expectNoSignal(QUIET);
    got.addAll(current.request(100).expectNext(7));
    current.expectComplete();
    assertEquals(ids, got);

    SubscriberProbe<String> live = new SubscriberProbe<>();
    queries.persistenceIds().subscribe(live);
    assertEquals(ids, new HashSet<>(live.request(Long.MAX_VALUE).expectNext(10)));
    live.expectNoSignal(QUIET);
    live.cancel();
  }

  @Test
  void idsOfAJournalThatCannotListThemEndTheQueryWithItsError() throws Exception {
    PollingReadJournal counted = PersistenceQuery.get(system).getReadJournalFor(PollingReadJournal.class, "counting-query");
    SubscriberProbe<String> probe = new SubscriberProbe<>();
    counted.currentPersistenceIds().subscribe(probe);
    UnsupportedOperationException e = probe.request(1).expectError(UnsupportedOperationException.class);
    assertTrue(e.getMessage().contains("CountingJournal"), e.getMessage());
  }

  @Test
  void aLiveQueryEndsWithAnErrorWhenItsSystemTerminates() throws Exception {
    ActorSystem other = system("");
    PollingReadJournal q = PersistenceQuery.get(other).getReadJournalFor(PollingReadJournal.class, PollingReadJournal.IDENTIFIER);
    SubscriberProbe<EventEnvelope> probe = new SubscriberProbe<>();
    q.eventsByPersistenceId("x", 0, Long.MAX_VALUE).subscribe(probe);
    probe.request(Long.MAX_VALUE);
    TestKit.shutdownActorSystem(other);
    assertTrue(probe.expectError(IllegalStateException.class).getMessage().contains(other.name()));

    SubscriberProbe<String> late = new SubscriberProbe<>(); // subscribed after the end: fails at once, unasked
    q.persistenceIds().subscribe(late);
    late.expectError(IllegalStateException.class);
  }

  /** A read journal of another kind, for the type check. */
  interface OtherQueries extends ReadJournal {}

  @Test
  void badSettingsAndCallsAreRefusedNamingWhatIsWrong() {
    for (String[] bad : new String[][] {
        {"troupe.persistence.query.polling.refresh-interval = 0s", "troupe.persistence.query.polling.refresh-interval"},
        {"troupe.persistence.query.polling.max-buffer-size = 0", "troupe.persistence.query.polling.max-buffer-size"},
        {"troupe.persistence.query.polling.write-plugin = nowhere", "nowhere"}}) {
      ActorSystem s = ActorSystem.create("query-bad-" + SYSTEMS.incrementAndGet(),
          ConfigFactory.parseString(bad[0]).withFallback(ConfigFactory.load()));
      systems.add(s);
      ConfigurationException e = assertThrows(ConfigurationException.class,
          () -> PersistenceQuery.get(s).getReadJournalFor(PollingReadJournal.class, PollingReadJournal.IDENTIFIER), bad[0]);
      assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
    }
    PersistenceQuery pq = PersistenceQuery.get(system);
    assertTrue(assertThrows(ConfigurationException.class, () -> pq.getReadJournalFor(PollingReadJournal.class, "no.such"))
        .getMessage().contains("no.such"));
    assertTrue(assertThrows(ConfigurationException.class,
        () -> pq.getReadJournalFor(OtherQueries.class, PollingReadJournal.IDENTIFIER)).getMessage().contains("OtherQueries"));
    assertThrows(IllegalArgumentException.class, () -> queries.eventsByPersistenceId("p", -1, 5));
    assertThrows(NullPointerException.class, () -> queries.currentPersistenceIds().subscribe(null));
    assertSame(queries, pq.getReadJournalFor(CurrentEventsByPersistenceIdQuery.class, PollingReadJournal.IDENTIFIER),
        "one read journal per id");
  }

  @Test
  void onTheFileJournalIdsComeFromTheFilesAndEventsReachSubscribersOffItsIoThread() throws Exception {
    Path journalDir = dir.resolve("journal");
    ActorSystem files = system("troupe.persistence.journal.plugin = \"troupe.persistence.journal.file\"\n"
        + "troupe.persistence.journal.file.fsync = off\n"
        + "troupe.persistence.journal.file.dir = \"" + journalDir.toString().replace("\\", "/") + "\"\n");
    Journal journal = Persistence.get(files).journalFor("");
    store(journal, "plain-id", 1, "a", "b");
    store(journal, "order|7 with spaces", 1, "c"); // no safe file name: stored under its hash
    Files.write(journalDir.resolve("stray.journal"), "not a journal".getBytes()); // left out with a warning
    Files.write(journalDir.resolve("notes.txt"), "not a journal".getBytes());
    PollingReadJournal q = PersistenceQuery.get(files).getReadJournalFor(PollingReadJournal.class, PollingReadJournal.IDENTIFIER);

    SubscriberProbe<String> ids = new SubscriberProbe<>();
    q.currentPersistenceIds().subscribe(ids);
    assertEquals(Set.of("plain-id", "order|7 with spaces"), new HashSet<>(ids.request(10).expectNext(2)));
    ids.expectComplete();

    SubscriberProbe<EventEnvelope> events = new SubscriberProbe<>();
    q.currentEventsByPersistenceId("plain-id", 0, Long.MAX_VALUE).subscribe(events);
    assertEquals(List.of("a", "b"), events(events.request(10).expectNext(2)));
    events.expectComplete();
    assertEquals(3, events.received().size(), "two events and the completion");
    for (SubscriberProbe.Signal s : events.received()) {
      assertFalse(s.thread().startsWith("troupe-file-journal"), "a signal on the journal's IO thread: " + s);
    }
  }
}
