package dev.troupe.persistence.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.PostStop;
import dev.troupe.actor.typed.SupervisorStrategy;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.persistence.Recovery;
import dev.troupe.persistence.typed.javadsl.CommandHandler;
import dev.troupe.persistence.typed.javadsl.CommandHandlerBuilder;
import dev.troupe.persistence.typed.javadsl.EventHandler;
import dev.troupe.persistence.typed.javadsl.EventSourcedBehavior;
import dev.troupe.persistence.typed.javadsl.RetentionCriteria;
import dev.troupe.persistence.typed.javadsl.SignalHandler;
import dev.troupe.testkit.typed.ActorTestKit;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** EventSourcedBehavior on the in-memory journal and a gated one: effects, recovery, snapshots, failures. */
class EventSourcedBehaviorTest {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();
  private ActorTestKit kit;
  private GatedJournal.Control control;

  @BeforeEach
  void start() {
    String name = "typed-persistence-" + SYSTEMS.incrementAndGet();
    kit = ActorTestKit.create(name, ConfigFactory.parseString("""
        troupe.persistence.replay-batch-size = 3
        troupe.persistence.typed.stash-capacity = 50
        gated { class = "dev.troupe.persistence.typed.GatedJournal" }
        """).withFallback(ConfigFactory.load()));
    control = GatedJournal.control(name);
  }

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  // ------------------------------------------------------------------ the behaviour under test

  sealed interface Command {}

  record Add(int n, ActorRef<Integer> replyTo) implements Command {}

  record AddTwice(int n, ActorRef<Integer> replyTo) implements Command {}

  record Get(ActorRef<Integer> replyTo) implements Command {}

  record Hold(String note, ActorRef<String> replyTo) implements Command {}

  record Release(ActorRef<String> replyTo) implements Command {}

  record StopAfter(int n) implements Command {}

  enum Unknown implements Command { INSTANCE }

  record Added(int n) {}

  record Odd(int n) {}

  /** A sum; held notes are stashed until released; signals reported to a probe. */
  static final class Sum extends EventSourcedBehavior<Command, Object, Integer> {
    private final ActorRef<String> signals;
    private final RetentionCriteria retention;
    private final String journal;
    private final Recovery recovery;

    Sum(String id, ActorRef<String> signals, RetentionCriteria retention, String journal, Recovery recovery) {
      super(PersistenceId.of("Sum", id));
      this.signals = signals;
      this.retention = retention;
      this.journal = journal;
      this.recovery = recovery;
    }

    @Override
    public Integer emptyState() {
      return 0;
    }

    @Override
    public CommandHandler<Command, Object, Integer> commandHandler() {
      CommandHandlerBuilder<Command, Object, Integer> b = newCommandHandlerBuilder();
      b.forState(total -> total >= 1000)
          .onCommand(Add.class, (total, c) -> Effect().reply(c.replyTo(), -1)); // full: refuses
      b.forAnyState()
          .onCommand(Add.class, (total, c) -> Effect().persist(new Added(c.n())).thenReply(c.replyTo(), t -> t))
          .onCommand(AddTwice.class, (total, c) -> Effect().persist(List.of(new Added(c.n()), new Added(c.n())))
              .thenReply(c.replyTo(), t -> t))
          .onCommand(Get.class, (total, c) -> Effect().reply(c.replyTo(), total))
          .onCommand(Hold.class, c -> Effect().stash())
          .onCommand(Release.class, c -> Effect().none().thenUnstashAll().thenReply(c.replyTo(), t -> "released"))
          .onCommand(StopAfter.class, c -> Effect().persist(new Added(c.n())).thenStop());
      return b.build();
    }

    @Override
    public EventHandler<Integer, Object> eventHandler() {
      return newEventHandlerBuilder().forAnyState()
          .onEvent(Added.class, (total, e) -> total + e.n())
          .build(); // Odd has no case: applying it fails
    }

    @Override
    public SignalHandler<Integer> signalHandler() {
      return newSignalHandlerBuilder()
          .onSignal(RecoveryCompleted.class, (total, s) -> signals.tell("recovered:" + total))
          .onSignal(RecoveryFailed.class, (total, s) -> signals.tell("recovery-failed:" + s.failure().getMessage()))
          .onSignal(SnapshotCompleted.class, (total, s) -> signals.tell("snapshot:" + s.metadata().sequenceNr()))
          .onSignal(PostStop.class, (total, s) -> signals.tell("stopped:" + total))
          .build();
    }

    @Override
    public RetentionCriteria retentionCriteria() {
      return retention;
    }

    @Override
    public String journalPluginId() {
      return journal;
    }

    @Override
    public Recovery recovery() {
      return recovery;
    }
  }

  private Sum sum(String id, TestProbe<String> signals) {
    return new Sum(id, signals.getRef(), RetentionCriteria.disabled(), "", Recovery.create());
  }

  // ------------------------------------------------------------------ tests

  @Test
  void persistsRepliesAfterTheEventsAndANewActorRecoversTheState() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(sum("a", signals));
    signals.expectMessage("recovered:0");
    for (int i = 1; i <= 10; i++) {
      a.tell(new Add(i, replies.getRef()));
    }
    for (int i = 1, total = 0; i <= 10; i++) {
      total += i;
      assertEquals(total, replies.receiveMessage(), "the reply carries the state after the " + i + "th event");
    }
    a.tell(new AddTwice(5, replies.getRef()));
    replies.expectMessage(65);
    kit.stop(a);
    signals.expectMessage("stopped:65");

    ActorRef<Command> b = kit.spawn(sum("a", signals));
    signals.expectMessage("recovered:65"); // 12 events, in chunks of 3
    b.tell(new Get(replies.getRef()));
    replies.expectMessage(65);
  }

  @Test
  void commandsWaitWhileEventsAreStoredAndStateConditionsChooseTheCase() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    control.gate = new CompletableFuture<>();
    ActorRef<Command> a = kit.spawn(new Sum("b", signals.getRef(), RetentionCriteria.disabled(), "gated", Recovery.create()));
    signals.expectMessage("recovered:0");
    a.tell(new Add(600, replies.getRef()));
    a.tell(new Add(600, replies.getRef())); // waits: then the state is 600, not yet full
    a.tell(new Add(1, replies.getRef()));   // then 1200: full
    a.tell(new Get(replies.getRef()));
    replies.expectNoMessage(Duration.ofMillis(100));
    control.gate.complete(null);
    assertEquals(List.of(600, 1200, -1, 1200), replies.receiveSeveralMessages(4));
  }

  @Test
  void stashedCommandsComeBackInOrderOnUnstashAll() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<String> notes = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(sum("c", signals));
    signals.expectMessage("recovered:0");
    // a Hold is stashed; when released, each comes back and is stashed again: they wait for the next release
    a.tell(new Hold("one", notes.getRef()));
    a.tell(new Hold("two", notes.getRef()));
    a.tell(new Release(notes.getRef()));
    notes.expectMessage("released");
    a.tell(new Release(notes.getRef()));
    notes.expectMessage("released");
    notes.expectNoMessage(Duration.ofMillis(50));
  }

  @Test
  void thenStopStopsAfterTheEventAndCommandsWaitingGoToDeadLetters() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(sum("d", signals));
    signals.expectMessage("recovered:0");
    a.tell(new StopAfter(7));
    a.tell(new Add(1, replies.getRef()));
    signals.expectMessage("stopped:7");
    replies.expectNoMessage(Duration.ofMillis(100));
    ActorRef<Command> again = kit.spawn(sum("d", signals));
    signals.expectMessage("recovered:7");
    again.tell(new Get(replies.getRef()));
    replies.expectMessage(7);
  }

  @Test
  void snapshotsEveryNEventsKeepRecoveryShort() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(new Sum("e", signals.getRef(), RetentionCriteria.snapshotEvery(3, 1), "", Recovery.create()));
    signals.expectMessage("recovered:0");
    for (int i = 0; i < 7; i++) {
      a.tell(new Add(1, replies.getRef()));
      replies.receiveMessage();
    }
    List<String> snaps = new ArrayList<>(List.of(signals.receiveMessage(), signals.receiveMessage()));
    assertEquals(List.of("snapshot:3", "snapshot:6"), snaps);
    kit.stop(a);
    signals.expectMessage("stopped:7");
    ActorRef<Command> b = kit.spawn(new Sum("e", signals.getRef(), RetentionCriteria.snapshotEvery(3, 1), "gated", Recovery.create()));
    signals.expectMessage("recovered:7");
    b.tell(new Get(replies.getRef()));
    replies.expectMessage(7);
  }

  @Test
  void eventsUpToTheOldestSnapshotKeptAreDeletedWhenAsked() throws Exception {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    RetentionCriteria deleting = RetentionCriteria.snapshotEvery(3, 2).withDeleteEventsOnSnapshot();
    ActorRef<Command> a = kit.spawn(new Sum("j", signals.getRef(), deleting, "", Recovery.create()));
    signals.expectMessage("recovered:0");
    for (int i = 0; i < 7; i++) {
      a.tell(new Add(1, replies.getRef()));
      replies.receiveMessage();
    }
    signals.expectMessage("snapshot:3");
    signals.expectMessage("snapshot:6"); // keeps 3 and 6: events up to 3 go
    dev.troupe.persistence.spi.Journal journal =
        dev.troupe.persistence.Persistence.get(dev.troupe.actor.typed.javadsl.Adapter.toClassic(kit.system())).journalFor("");
    List<Long> left = new java.util.concurrent.CopyOnWriteArrayList<>();
    signals.awaitAssert(() -> {
      left.clear();
      journal.replay("Sum|j", 1, Long.MAX_VALUE, 100, e -> left.add(e.sequenceNr())).toCompletableFuture().join();
      assertEquals(List.of(4L, 5L, 6L, 7L), left);
      return null;
    });
    org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
        () -> RetentionCriteria.disabled().withDeleteEventsOnSnapshot());
  }

  @Test
  void aFailedWriteFailsTheActorAndASupervisorRestartsItIntoRecovery() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    Behavior<Command> supervised = Behaviors.supervise(
            new Sum("f", signals.getRef(), RetentionCriteria.disabled(), "gated", Recovery.create()))
        .onFailure(JournalFailureException.class, SupervisorStrategy.restart());
    ActorRef<Command> a = kit.spawn(supervised);
    signals.expectMessage("recovered:0");
    a.tell(new Add(5, replies.getRef()));
    replies.expectMessage(5);
    control.failWrites = true;
    a.tell(new Add(1, replies.getRef()));
    signals.expectMessage("recovered:5"); // restarted: the failed event is not in the state
    control.failWrites = false;
    a.tell(new Add(1, replies.getRef()));
    replies.expectMessage(6);
  }

  @Test
  void aRejectedWriteFailsTheActorWithoutChangingTheStoredState() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(new Sum("g", signals.getRef(), RetentionCriteria.disabled(), "gated", Recovery.create()));
    signals.expectMessage("recovered:0");
    control.rejectWrites = true;
    a.tell(new Add(5, replies.getRef()));
    signals.expectMessage("stopped:0");
    replies.expectNoMessage(Duration.ofMillis(50));
    control.rejectWrites = false;
    ActorRef<Command> b = kit.spawn(sum("g", signals));
    signals.expectMessage("recovered:0");
    b.tell(new Add(2, replies.getRef()));
    replies.expectMessage(2);
  }

  @Test
  void aWriteWithoutAnAnswerFailsTheActorAfterTheCallTimeout() {
    String name = "typed-persistence-slow-" + SYSTEMS.incrementAndGet();
    ActorTestKit slow = ActorTestKit.create(name, ConfigFactory.parseString("""
        troupe.persistence.call-timeout = 300ms
        gated { class = "dev.troupe.persistence.typed.GatedJournal" }
        """).withFallback(ConfigFactory.load()));
    try {
      GatedJournal.control(name).gate = new CompletableFuture<>(); // never answers
      TestProbe<String> signals = slow.createTestProbe();
      TestProbe<Integer> replies = slow.createTestProbe();
      ActorRef<Command> a = slow.spawn(new Sum("k", signals.getRef(), RetentionCriteria.disabled(), "gated", Recovery.create()));
      signals.expectMessage("recovered:0");
      a.tell(new Add(1, replies.getRef()));
      signals.expectMessage(Duration.ofSeconds(5), "stopped:0"); // JournalFailureException: a typed actor stops
      signals.expectTerminated(a);
      replies.expectNoMessage(Duration.ofMillis(50));
    } finally {
      slow.shutdownTestKit();
    }
  }

  @Test
  void aFailedRecoverySignalsAndStopsTheActor() {
    TestProbe<String> signals = kit.createTestProbe();
    control.failReplay = true;
    ActorRef<Command> a = kit.spawn(new Sum("h", signals.getRef(), RetentionCriteria.disabled(), "gated", Recovery.create()));
    signals.expectMessage("recovery-failed:unreadable");
    signals.expectMessage("stopped:0");
    signals.expectTerminated(a);
  }

  @Test
  void unhandledCommandsAreUnhandledAndAnEventWithoutAHandlerFailsTheActor() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(sum("i", signals));
    signals.expectMessage("recovered:0");
    a.tell(Unknown.INSTANCE); // unhandled: the actor goes on
    a.tell(new Get(replies.getRef()));
    replies.expectMessage(0);
    var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
        () -> sum("x", signals).eventHandler().apply(0, new Odd(1)));
    assertTrue(e.getMessage().contains("no event handler for " + Odd.class.getName()), e.getMessage());
    assertInstanceOf(PersistenceId.class, PersistenceId.of("Sum", "i"));
    assertEquals("Sum|i", PersistenceId.of("Sum", "i").id());
  }
}
