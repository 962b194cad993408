package dev.troupe.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.persistence.journal.EventAdapter;
import dev.troupe.persistence.journal.EventAdapters;
import dev.troupe.persistence.journal.EventSeq;
import dev.troupe.persistence.journal.ReadEventAdapter;
import dev.troupe.persistence.journal.WriteEventAdapter;
import dev.troupe.persistence.query.EventEnvelope;
import dev.troupe.persistence.query.Offset;
import dev.troupe.persistence.query.PersistenceQuery;
import dev.troupe.persistence.query.polling.PollingReadJournal;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.PersistentRepr;
import dev.troupe.persistence.spi.TaggedRepr;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Event adapters of a journal plugin: old stored events upcast, split or dropped on replay, a write
 * adapter that tags, bindings to interfaces and the most specific binding, and misconfiguration.
 * Old events are written through the journal SPI, as an earlier version of the actor stored them.
 */
@Timeout(60)
public class EventAdaptersTest {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String TEST = "dev.troupe.persistence.EventAdaptersTest$";

  private ActorSystem system;

  @BeforeEach
  void start() {
    system = ActorSystem.create("adapters-" + SYSTEMS.incrementAndGet(), ConfigFactory.parseString("""
        adapted {
          class = "dev.troupe.persistence.internal.InMemoryJournal"
          event-adapters {
            upcast = "%1$sUpcast"
            split = "%1$sSplit"
            drop = "%1$sDrop"
            tag = "%1$sTagOrders"
            audit = "%1$sAuditRead"
            flag = "%1$sFlagRead"
            base = "%1$sBaseRead"
            special = "%1$sSpecialRead"
          }
          event-adapter-bindings {
            "%1$sAddedV1" = upcast
            "%1$sTransferred" = split
            "%1$sNoise" = drop
            "%1$sOrdered" = tag
            "%1$sAudited" = audit
            "%1$sFlagged" = flag
            "%1$sBase" = base
            "%1$sSpecial" = special
            "%1$sPair" = [audit, flag]
          }
        }
        adapted-query {
          class = "dev.troupe.persistence.query.polling.PollingReadJournal"
          write-plugin = adapted
          max-buffer-size = 2
        }
        """.formatted(TEST)).withFallback(ConfigFactory.load()));
  }

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  // ------------------------------------------------------------------ events

  public record AddedV1(int amount) {}

  public record AddedV2(int amount, String currency) {}

  public record Transferred(int amount) {}

  public record Withdrawn(int amount) {}

  public record Deposited(int amount) {}

  public record Noise() {}

  public record Ordered(String item) {}

  public interface Audited {}

  public interface Flagged {}

  public record Login(String user) implements Audited {}

  public record Both() implements Audited, Flagged {}

  public record Pair() implements Audited {}

  public static class Base {
    @Override
    public String toString() {
      return getClass().getSimpleName();
    }
  }

  public static class Special extends Base implements Audited {}

  public static class MoreSpecial extends Special {}

  // ------------------------------------------------------------------ adapters

  /** AddedV1 had no currency: it was always euros. Made with the system (the constructor tried first). */
  public static final class Upcast extends ReadEventAdapter {
    private final String currency;

    public Upcast() {
      this.currency = "made without the system";
    }

    public Upcast(ActorSystem system) {
      this.currency = system != null ? "EUR" : "no system";
    }

    @Override
    public EventSeq fromJournal(Object event, String manifest) {
      return EventSeq.single(new AddedV2(((AddedV1) event).amount(), currency));
    }
  }

  /** A transfer is now two events. */
  public static final class Split extends ReadEventAdapter {
    @Override
    public EventSeq fromJournal(Object event, String manifest) {
      int amount = ((Transferred) event).amount();
      return EventSeq.create(new Withdrawn(amount), new Deposited(amount));
    }
  }

  /** Noise is no longer an event. */
  public static final class Drop extends ReadEventAdapter {
    @Override
    public EventSeq fromJournal(Object event, String manifest) {
      return EventSeq.empty();
    }
  }

  /** Every order is stored under the tag "orders". */
  public static final class TagOrders extends WriteEventAdapter {
    @Override
    public Object toJournal(Object event) {
      return new Tagged(event, Set.of("orders"));
    }
  }

  public static final class AuditRead extends ReadEventAdapter {
    @Override
    public EventSeq fromJournal(Object event, String manifest) {
      return EventSeq.single("audited:" + event);
    }
  }

  public static final class FlagRead extends ReadEventAdapter {
    @Override
    public EventSeq fromJournal(Object event, String manifest) {
      return EventSeq.single("flagged:" + event);
    }
  }

  public static final class BaseRead extends ReadEventAdapter {
    @Override
    public EventSeq fromJournal(Object event, String manifest) {
      return EventSeq.single("base:" + event);
    }
  }

  public static final class SpecialRead extends ReadEventAdapter {
    @Override
    public EventSeq fromJournal(Object event, String manifest) {
      return EventSeq.single("special:" + event);
    }
  }

  /** A full adapter: writes and reads. */
  public static final class Both1 implements EventAdapter {
    @Override
    public String manifest(Object event) {
      return "";
    }

    @Override
    public Object toJournal(Object event) {
      return event;
    }

    @Override
    public EventSeq fromJournal(Object event, String manifest) {
      return EventSeq.single(event);
    }
  }

  /** Another full adapter. */
  public static final class Both2 extends WriteEventAdapter {
    @Override
    public Object toJournal(Object event) {
      return event;
    }
  }

  /** No constructor the runtime can use. */
  public static final class NeedsANumber extends ReadEventAdapter {
    public NeedsANumber(int n) {}

    @Override
    public EventSeq fromJournal(Object event, String manifest) {
      return EventSeq.single(event);
    }
  }

  // ------------------------------------------------------------------ the actor

  /** What recovery handed the actor, with lastSequenceNr() at that moment. */
  record Seen(Object event, long sequenceNr) {}

  record Persist(Object event) {}

  /** Tells its probe every recovered event and the end of recovery; persists what it is told to. */
  static final class Recorder extends AbstractPersistentActor {
    private final String id;
    private final ActorRef probe;

    Recorder(String id, ActorRef probe) {
      this.id = id;
      this.probe = probe;
    }

    @Override
    public String persistenceId() {
      return id;
    }

    @Override
    public String journalPluginId() {
      return "adapted";
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder()
          .match(RecoveryCompleted.class, r -> probe.tell("recovered@" + lastSequenceNr(), getSelf()))
          .matchAny(e -> probe.tell(new Seen(e, lastSequenceNr()), getSelf()))
          .build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Persist.class, p -> persist(p.event(), e -> probe.tell(new Seen(e, lastSequenceNr()), getSelf())))
          .build();
    }

    @Override
    protected void onRecoveryFailure(Throwable cause, Optional<Object> event) {
      probe.tell(cause, getSelf());
    }
  }

  private Journal journal() {
    return Persistence.get(system).journalFor("adapted");
  }

  /** Stores events as an earlier version of the actor did: through the SPI, past the adapters. */
  private void stored(String id, Object... events) throws Exception {
    List<PersistentRepr> reprs = new ArrayList<>();
    for (int k = 0; k < events.length; k++) {
      reprs.add(new PersistentRepr(id, k + 1, events[k], 0, Set.of("t")));
    }
    List<Optional<Exception>> results = journal().write(List.of(new AtomicWrite(id, reprs)))
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(List.of(Optional.empty()), results);
  }

  private List<PersistentRepr> replayed(String id) throws Exception {
    List<PersistentRepr> got = new ArrayList<>();
    journal().replay(id, 1, Long.MAX_VALUE, 100, got::add).toCompletableFuture().get(10, TimeUnit.SECONDS);
    return got;
  }

  private TestProbe recover(String id) {
    TestProbe probe = new TestProbe(system);
    system.actorOf(Props.create(Recorder.class, () -> new Recorder(id, probe.getRef())));
    return probe;
  }

  // ------------------------------------------------------------------ replay

  @Test
  void anOldEventIsUpcastOnReplayAndNewOnesAreStoredAsTheyAre() throws Exception {
    stored("account", new AddedV1(5), new AddedV1(7));
    TestProbe probe = recover("account");
    probe.expectMsg(WAIT, new Seen(new AddedV2(5, "EUR"), 1));
    probe.expectMsg(WAIT, new Seen(new AddedV2(7, "EUR"), 2));
    probe.expectMsg(WAIT, "recovered@2");

    ActorRef actor = probe.getLastSender();
    actor.tell(new Persist(new AddedV2(1, "USD")), ActorRef.noSender());
    probe.expectMsg(WAIT, new Seen(new AddedV2(1, "USD"), 3));
    assertEquals(List.of(new AddedV1(5), new AddedV1(7), new AddedV2(1, "USD")),
        replayed("account").stream().map(PersistentRepr::payload).toList(), "the journal is not rewritten");
  }

  @Test
  void oneStoredEventSplitIntoTwoGivesBothItsSequenceNumber() throws Exception {
    stored("transfers", new AddedV1(1), new Transferred(10), new AddedV1(2));
    TestProbe probe = recover("transfers");
    probe.expectMsg(WAIT, new Seen(new AddedV2(1, "EUR"), 1));
    probe.expectMsg(WAIT, new Seen(new Withdrawn(10), 2));
    probe.expectMsg(WAIT, new Seen(new Deposited(10), 2));
    probe.expectMsg(WAIT, new Seen(new AddedV2(2, "EUR"), 3));
    probe.expectMsg(WAIT, "recovered@3");
  }

  @Test
  void aDroppedEventIsSkippedAndItsNumberStaysTaken() throws Exception {
    stored("noisy", new AddedV1(1), new Noise(), new AddedV1(2), new Noise());
    TestProbe probe = recover("noisy");
    probe.expectMsg(WAIT, new Seen(new AddedV2(1, "EUR"), 1));
    probe.expectMsg(WAIT, new Seen(new AddedV2(2, "EUR"), 3));
    probe.expectMsg(WAIT, "recovered@4");
    probe.getLastSender().tell(new Persist("next"), ActorRef.noSender());
    probe.expectMsg(WAIT, new Seen("next", 5));
  }

  @Test
  void eventsBoundToAnInterfaceAreAdaptedAndAnUnboundOnePassesUnchanged() throws Exception {
    stored("audit", new Login("ann"), "plain");
    TestProbe probe = recover("audit");
    probe.expectMsg(WAIT, new Seen("audited:" + new Login("ann"), 1));
    probe.expectMsg(WAIT, new Seen("plain", 2));
    probe.expectMsg(WAIT, "recovered@2");
  }

  @Test
  void anEventThatMatchesTwoBindingsEquallyFailsTheRecoveryNamingBoth() throws Exception {
    stored("both", new Both());
    TestProbe probe = recover("both");
    ConfigurationException e = probe.expectMsgClass(WAIT, ConfigurationException.class);
    assertTrue(e.getMessage().contains("adapted.event-adapter-bindings.\"" + TEST + "Audited\"")
        && e.getMessage().contains("adapted.event-adapter-bindings.\"" + TEST + "Flagged\""), e.getMessage());
    assertTrue(e.getMessage().contains("bind " + TEST + "Both itself"), e.getMessage());
  }

  // ------------------------------------------------------------------ queries

  /** What a current query hands over, all of it, once it completes (bounded wait). */
  private static List<EventEnvelope> all(Flow.Publisher<EventEnvelope> query) throws Exception {
    List<EventEnvelope> got = new java.util.concurrent.CopyOnWriteArrayList<>();
    CompletableFuture<List<EventEnvelope>> done = new CompletableFuture<>();
    query.subscribe(new Flow.Subscriber<>() {
      @Override
      public void onSubscribe(Flow.Subscription s) {
        s.request(Long.MAX_VALUE);
      }

      @Override
      public void onNext(EventEnvelope e) {
        got.add(e);
      }

      @Override
      public void onError(Throwable t) {
        done.completeExceptionally(t);
      }

      @Override
      public void onComplete() {
        done.complete(got);
      }
    });
    return done.get(10, TimeUnit.SECONDS);
  }

  @Test
  void queriesHandOverAdaptedEventsAcrossBatches() throws Exception {
    // batches of 2: the second ends with a dropped event, the third starts with a split one
    stored("history", new AddedV1(1), new Noise(), new Noise(), new Transferred(4), new AddedV1(2));
    PollingReadJournal queries = PersistenceQuery.get(system).getReadJournalFor(PollingReadJournal.class, "adapted-query");
    List<String> expected = List.of(new AddedV2(1, "EUR") + "@1", new Withdrawn(4) + "@4", new Deposited(4) + "@4",
        new AddedV2(2, "EUR") + "@5");
    assertEquals(expected, all(queries.currentEventsByPersistenceId("history", 0, Long.MAX_VALUE)).stream()
        .map(e -> e.event() + "@" + e.sequenceNr()).toList());
    assertEquals(expected, all(queries.currentEventsByTag("t", Offset.noOffset())).stream()
        .map(e -> e.event() + "@" + e.sequenceNr()).toList());
  }

  // ------------------------------------------------------------------ writing

  @Test
  void aWriteAdapterThatReturnsTaggedAddsTagsTheQueriesByTagFind() throws Exception {
    TestProbe probe = recover("shop");
    probe.expectMsg(WAIT, "recovered@0");
    ActorRef actor = probe.getLastSender();
    actor.tell(new Persist(new Ordered("book")), ActorRef.noSender());
    probe.expectMsg(WAIT, new Seen(new Ordered("book"), 1)); // the handler gets the event as persisted
    Tagged pen = new Tagged(new Ordered("pen"), Set.of("stationery"));
    actor.tell(new Persist(pen), ActorRef.noSender());
    probe.expectMsg(WAIT, new Seen(pen, 2));

    List<TaggedRepr> orders = new ArrayList<>();
    journal().eventsByTag("orders", 0, 100, orders::add).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(List.of(new Ordered("book"), new Ordered("pen")), orders.stream().map(t -> t.event().payload()).toList());
    assertEquals(Set.of("orders", "stationery"), orders.get(1).event().tags(), "the adapter's tags add to the event's own");
    List<TaggedRepr> stationery = new ArrayList<>();
    journal().eventsByTag("stationery", 0, 100, stationery::add).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(List.of(2L), stationery.stream().map(t -> t.event().sequenceNr()).toList());
  }

  @Test
  void aWriteWhoseAdaptationFailsFailsAsAJournalFailureWould() throws Exception {
    TestProbe probe = recover("ambiguous-writer");
    probe.expectMsg(WAIT, "recovered@0");
    ActorRef actor = probe.getLastSender();
    probe.watch(actor);
    actor.tell(new Persist(new Both()), ActorRef.noSender()); // Both matches Audited and Flagged equally
    probe.expectTerminated(WAIT, actor); // onPersistFailure: the actor stops
    assertEquals(List.of(), replayed("ambiguous-writer"), "nothing was stored");
  }

  // ------------------------------------------------------------------ resolution

  @Test
  void theMostSpecificBindingWinsAndAListOfReadersIsConcatenated() {
    EventAdapters adapters = Persistence.get(system).adaptersFor("adapted");
    assertSame(adapters, Persistence.get(system).adaptersFor("adapted"), "made once per plugin");
    assertEquals(List.of("base:Base"), adapters.fromJournal(new Base(), "").events());
    assertEquals(List.of("special:Special"), adapters.fromJournal(new Special(), "").events(),
        "the class itself over its superclass and its interface");
    assertEquals(List.of("special:MoreSpecial"), adapters.fromJournal(new MoreSpecial(), "").events(),
        "the nearest bound superclass over a farther one and an interface it implements");
    assertEquals(List.of("audited:" + new Pair(), "flagged:" + new Pair()), adapters.fromJournal(new Pair(), "").events(),
        "each reader of a list, in order, its results concatenated");
    assertEquals(new Pair(), adapters.toJournal(new Pair()), "read adapters do not write");
    assertEquals(List.of(new Ordered("x")), adapters.fromJournal(new Ordered("x"), "").events(), "write adapters do not read");
    assertEquals(List.of("s"), adapters.fromJournal("s", "").events());
    assertSame(EventAdapters.none(), Persistence.get(system).adaptersFor(""), "a journal without adapters gets none");
    assertTrue(EventAdapters.none().isEmpty());
  }

  @Test
  void eventSeqsHoldTheirEvents() {
    assertEquals(List.of(), EventSeq.empty().events());
    assertEquals(List.of(1), EventSeq.single(1).events());
    assertEquals(List.of(1, 2), EventSeq.create(1, 2).events());
    assertEquals(EventSeq.create(1, 2), EventSeq.create(List.of(1, 2)));
    assertSame(EventSeq.empty(), EventSeq.create(List.of()));
    assertThrows(NullPointerException.class, () -> EventSeq.single(null));
  }

  // ------------------------------------------------------------------ misconfiguration

  private static String adapterKey(String name) {
    return "bad.event-adapters." + name;
  }

  private static String bindingKey(String className) {
    return "bad.event-adapter-bindings.\"" + className + "\"";
  }

  /** The message of the failure that making the adapters of section {@code bad} gives. */
  private static String failure(String section) {
    ActorSystem s = ActorSystem.create("adapters-bad-" + SYSTEMS.incrementAndGet(), ConfigFactory.parseString(
        "bad { class = \"dev.troupe.persistence.internal.InMemoryJournal\"\n" + section + "\n}")
        .withFallback(ConfigFactory.load()));
    try {
      return assertThrows(ConfigurationException.class, () -> Persistence.get(s).adaptersFor("bad"), section).getMessage();
    } finally {
      TestKit.shutdownActorSystem(s);
    }
  }

  private static void assertNames(String key, String message) {
    assertTrue(message.contains(key), "[" + message + "] names " + key);
  }

  @Test
  void everyMisconfigurationIsRefusedNamingItsKey() {
    assertNames(adapterKey("a"), failure("event-adapters { a = \"no.such.Adapter\" }"));
    assertNames(adapterKey("a"), failure("event-adapters { a = \"java.lang.String\" }"));
    assertNames("is no " + EventAdapter.class.getName(), failure("event-adapters { a = \"java.lang.String\" }"));
    assertNames(adapterKey("a"), failure("event-adapters { a = \"" + TEST + "NeedsANumber\" }"));
    assertNames("constructor", failure("event-adapters { a = \"" + TEST + "NeedsANumber\" }"));
    assertNames(adapterKey("a"), failure("event-adapters { a = 3 }"));
    assertNames("bad.event-adapters", failure("event-adapters = \"x\""));
    assertNames(bindingKey("no.such.Event"),
        failure("event-adapters { d = \"" + TEST + "Drop\" }\nevent-adapter-bindings { \"no.such.Event\" = d }"));
    String unknownName = failure("event-adapters { d = \"" + TEST + "Drop\" }\nevent-adapter-bindings { \"" + TEST
        + "Noise\" = nope }");
    assertNames(bindingKey(TEST + "Noise"), unknownName);
    assertNames("[nope], which is not in bad.event-adapters", unknownName);
    assertNames(bindingKey(TEST + "Noise"),
        failure("event-adapter-bindings { \"" + TEST + "Noise\" = d }"));
    assertNames(bindingKey(TEST + "Noise"),
        failure("event-adapters { d = \"" + TEST + "Drop\" }\nevent-adapter-bindings { \"" + TEST + "Noise\" = 3 }"));
    String twoWriters = failure("event-adapters { w1 = \"" + TEST + "Both1\", w2 = \"" + TEST + "Both2\" }\n"
        + "event-adapter-bindings { \"" + TEST + "Noise\" = [w1, w2] }");
    assertNames(bindingKey(TEST + "Noise"), twoWriters);
    assertNames("more than one adapter that writes", twoWriters);
  }

  @Test
  void aPersistentActorOnAMisconfiguredJournalFailsToStart() {
    ActorSystem s = ActorSystem.create("adapters-bad-" + SYSTEMS.incrementAndGet(), ConfigFactory.parseString("""
        adapted {
          class = "dev.troupe.persistence.internal.InMemoryJournal"
          event-adapters { a = "no.such.Adapter" }
        }
        """).withFallback(ConfigFactory.load()));
    try {
      TestProbe probe = new TestProbe(s);
      ActorRef actor = s.actorOf(Props.create(Recorder.class, () -> new Recorder("x", probe.getRef())));
      probe.watch(actor);
      probe.expectTerminated(WAIT, actor);
    } finally {
      TestKit.shutdownActorSystem(s);
    }
  }
}
