package dev.troupe.persistence.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.persistence.AbstractPersistentActor;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.RecoveryCompleted;
import dev.troupe.persistence.Tagged;
import dev.troupe.persistence.query.polling.PollingReadJournal;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.persistence.spi.TaggedRepr;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tags: how a classic persistent actor writes them ({@link Tagged}), the in-memory journal's index
 * ({@code eventsByTag} in the SPI), and the queries by tag over it.
 */
class TaggedEventsTest {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();
  private final ActorSystem system = ActorSystem.create("tags-" + SYSTEMS.incrementAndGet(), ConfigFactory.parseString(
      "troupe.persistence.query.polling { refresh-interval = 50ms, max-buffer-size = 3 }").withFallback(ConfigFactory.load()));
  private final Journal journal = Persistence.get(system).journalFor("");
  private final PollingReadJournal queries =
      PersistenceQuery.get(system).getReadJournalFor(PollingReadJournal.class, PollingReadJournal.IDENTIFIER);

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  private void store(String id, long seq, String event, String... tags) throws Exception {
    journal.write(List.of(new AtomicWrite(id, List.of(new PersistentRepr(id, seq, event, 0, Set.of(tags))))))
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private List<TaggedRepr> byTag(String tag, long after, long max) throws Exception {
    List<TaggedRepr> got = new ArrayList<>();
    journal.eventsByTag(tag, after, max, got::add).toCompletableFuture().get(10, TimeUnit.SECONDS);
    return got;
  }

  private static List<Object> payloads(List<TaggedRepr> got) {
    return got.stream().map(t -> t.event().payload()).toList();
  }

  @Test
  void theInMemoryIndexKeepsEachTagsEventsInStoreOrderAcrossActors() throws Exception {
    store("a", 1, "a1", "blue");
    store("b", 1, "b1", "blue", "red");
    store("a", 2, "a2");
    store("a", 3, "a3", "red", "blue");
    store("c", 1, "c1", "red");

    List<TaggedRepr> blue = byTag("blue", 0, 10);
    assertEquals(List.of("a1", "b1", "a3"), payloads(blue));
    assertEquals(List.of(1L, 2L, 3L), blue.stream().map(TaggedRepr::offset).toList());
    assertEquals(Set.of("red", "blue"), blue.get(2).event().tags(), "an event keeps all its tags");
    assertEquals(List.of("b1", "a3", "c1"), payloads(byTag("red", 0, 10)));
    assertEquals(List.of("a3"), payloads(byTag("blue", 2, 10)), "after an offset");
    assertEquals(List.of("a1", "b1"), payloads(byTag("blue", 0, 2)), "at most max");
    assertEquals(List.of(), byTag("green", 0, 10));

    journal.deleteTo("a", 1).toCompletableFuture().get(10, TimeUnit.SECONDS);
    List<TaggedRepr> afterDelete = byTag("blue", 0, 10);
    assertEquals(List.of("b1", "a3"), payloads(afterDelete), "a deleted event is left out");
    assertEquals(List.of(2L, 3L), afterDelete.stream().map(TaggedRepr::offset).toList(), "offsets stay as they were");
    assertEquals(List.of("b1"), payloads(byTag("blue", 0, 1)), "max counts what is handed over");
  }

  /** Persists each string tagged with its first letter, and answers with what its handler got. */
  static final class Tagger extends AbstractPersistentActor {
    private final ActorRef probe;

    Tagger(ActorRef probe) {
      this.probe = probe;
    }

    @Override
    public String persistenceId() {
      return "tagger";
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder()
          .match(RecoveryCompleted.class, done -> {})
          .matchAny(e -> probe.tell("recovered " + e, getSelf()))
          .build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(String.class, s -> persist(new Tagged(s, Set.of(s.substring(0, 1))), t -> probe.tell(t, getSelf())))
          .build();
    }
  }

  @Test
  void aClassicActorTagsWithTaggedAndTheQueriesByTagFindItsEvents() throws Exception {
    TestProbe probe = new TestProbe(system);
    ActorRef tagger = system.actorOf(Props.create(Tagger.class, () -> new Tagger(probe.getRef())));
    SubscriberProbe<EventEnvelope> live = new SubscriberProbe<>();
    queries.eventsByTag("x", Offset.noOffset()).subscribe(live);
    live.request(Long.MAX_VALUE);

    for (String s : List.of("x1", "y1", "x2", "x3", "y2", "x4")) {
      tagger.tell(s, probe.getRef());
      assertEquals(new Tagged(s, Set.of(s.substring(0, 1))), probe.expectMsgClass(Tagged.class), "the handler gets the wrapper");
    }
    List<EventEnvelope> xs = live.expectNext(4);
    assertEquals(List.of("x1", "x2", "x3", "x4"), xs.stream().map(EventEnvelope::event).toList());
    assertEquals(List.of(1L, 3L, 4L, 6L), xs.stream().map(EventEnvelope::sequenceNr).toList());
    assertEquals(List.of(new Sequence(1), new Sequence(2), new Sequence(3), new Sequence(4)),
        xs.stream().map(EventEnvelope::offset).toList());

    SubscriberProbe<EventEnvelope> resumed = new SubscriberProbe<>();
    queries.currentEventsByTag("x", xs.get(1).offset()).subscribe(resumed); // after the second
    assertEquals(List.of("x3", "x4"), resumed.request(10).expectNext(2).stream().map(EventEnvelope::event).toList());
    resumed.expectComplete();

    system.stop(tagger);
    probe.watch(tagger);
    probe.expectTerminated(tagger);
    system.actorOf(Props.create(Tagger.class, () -> new Tagger(probe.getRef())));
    assertEquals("recovered x1", probe.expectMsgClass(String.class), "recovery replays the event alone");
    live.cancel();
  }

  @Test
  void aTaggedInsideATaggedAndBadOffsetsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Tagged(new Tagged("e", Set.of("a")), Set.of("b")));
    assertThrows(IllegalArgumentException.class, () -> queries.eventsByTag("t", Offset.sequence(-1)));
    assertThrows(NullPointerException.class, () -> queries.currentEventsByTag("t", null));
    assertTrue(new Tagged("e", Set.of()).tags().isEmpty());
  }
}
