package dev.troupe.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The persistent actor's protocol on the in-memory journal (and a controlled one that fails,
 * rejects, holds writes and counts reads): persisting, recovery, snapshots, deletion, failures.
 */
class PersistentActorTest {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();
  private ActorSystem system;
  private ControlledJournal.Control control;

  @BeforeEach
  void start() {
    system = ActorSystem.create("persistent-" + SYSTEMS.incrementAndGet(), ConfigFactory.parseString("""
        troupe.persistence.replay-batch-size = 4
        controlled { class = "dev.troupe.persistence.ControlledJournal" }
        """).withFallback(ConfigFactory.load()));
    control = ControlledJournal.control(system);
  }

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  // ------------------------------------------------------------------ the actor under test

  record Add(int n) {}

  record AddAll(List<Integer> ns) {}

  record AddAsync(int n) {}

  record Added(int n) {}

  record Total(int total, long lastSequenceNr) {}

  enum Cmd { GET, FAIL, SNAPSHOT, DEFER, BECOME_QUIET }

  record Delete(long to) {}

  /** Adds numbers; tells its probe what happens, in order: "cmd:n", "evt:n", "recovered:total", ... */
  static class Counter extends AbstractPersistentActor {
    final String id;
    final ActorRef probe;
    final Recovery recovery;
    final String journal;
    int total;

    Counter(String id, ActorRef probe, Recovery recovery, String journal) {
      this.id = id;
      this.probe = probe;
      this.recovery = recovery;
      this.journal = journal;
    }

    @Override
    public String persistenceId() {
      return id;
    }

    @Override
    public Recovery recovery() {
      return recovery;
    }

    @Override
    public String journalPluginId() {
      return journal;
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder()
          .match(Added.class, e -> total += e.n())
          .match(SnapshotOffer.class, o -> {
            total = (Integer) o.snapshot();
            probe.tell("offer:" + total + "@" + o.metadata().sequenceNr(), getSelf());
          })
          .match(RecoveryCompleted.class, r -> probe.tell("recovered:" + total + "@" + lastSequenceNr(), getSelf()))
          .build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Add.class, c -> {
            probe.tell("cmd:" + c.n(), getSelf());
            persist(new Added(c.n()), e -> {
              total += e.n();
              probe.tell("evt:" + e.n(), getSelf());
              getSender().tell(new Total(total, lastSequenceNr()), getSelf());
            });
          })
          .match(AddAsync.class, c -> {
            probe.tell("cmd:" + c.n(), getSelf());
            persistAsync(new Added(c.n()), e -> {
              total += e.n();
              probe.tell("evt:" + e.n(), getSelf());
            });
          })
          .match(AddAll.class, c -> persistAll(c.ns().stream().map(Added::new).toList(), e -> {
            total += e.n();
            probe.tell("evt:" + e.n() + "@" + lastSequenceNr(), getSelf());
          }))
          .matchEquals(Cmd.DEFER, c -> {
            persist(new Added(1), e -> {
              total += e.n();
              probe.tell("evt:1", getSelf());
            });
            defer("after", v -> probe.tell("deferred:" + v + "@" + total, getSelf()));
          })
          .matchEquals(Cmd.GET, c -> getSender().tell(new Total(total, lastSequenceNr()), getSelf()))
          .matchEquals(Cmd.FAIL, c -> {
            throw new IllegalStateException("boom");
          })
          .matchEquals(Cmd.SNAPSHOT, c -> saveSnapshot(total))
          .matchEquals(Cmd.BECOME_QUIET, c -> getContext().become(receiveBuilder()
              .match(Add.class, a -> persist(new Added(a.n()), e -> {
                total += e.n();
                probe.tell("quiet-evt:" + e.n(), getSelf());
              }))
              .build()))
          .match(Delete.class, d -> deleteMessages(d.to()))
          .matchAny(m -> probe.tell(m, getSelf()))
          .build();
    }

    @Override
    protected void onPersistRejected(Throwable cause, Object event, long sequenceNr) {
      probe.tell("rejected:" + event + "@" + sequenceNr, getSelf());
    }

    @Override
    protected void onPersistFailure(Throwable cause, Object event, long sequenceNr) {
      probe.tell("failed:" + event + "@" + sequenceNr + ":" + cause.getMessage(), getSelf());
    }

    @Override
    protected void onRecoveryFailure(Throwable cause, Optional<Object> event) {
      probe.tell("recovery-failed:" + cause.getMessage() + ":" + event.map(Object::toString).orElse("-"), getSelf());
    }
  }

  private ActorRef counter(String id, TestProbe probe) {
    return counter(id, probe, Recovery.create(), "");
  }

  private ActorRef counter(String id, TestProbe probe, Recovery recovery, String journal) {
    return system.actorOf(Props.create(Counter.class, () -> new Counter(id, probe.getRef(), recovery, journal)));
  }

  private static void stopAndWait(TestProbe watcher, ActorRef ref) {
    watcher.watch(ref);
    ref.tell(PoisonPill.getInstance(), ActorRef.noSender());
    watcher.expectTerminated(ref);
  }

  // ------------------------------------------------------------------ tests

  @Test
  void eventsArePersistedAndAnotherIncarnationRecoversThem() {
    TestProbe probe = new TestProbe(system);
    TestProbe client = new TestProbe(system);
    ActorRef a = counter("c1", probe);
    probe.expectMsg("recovered:0@0");
    for (int i = 1; i <= 10; i++) {
      client.send(a, new Add(i));
    }
    for (int i = 1, total = 0; i <= 10; i++) {
      total += i;
      assertEquals(new Total(total, i), client.expectMsgClass(Total.class), "the reply to the " + i + "th command");
    }
    stopAndWait(client, a);
    probe.receiveN(20);

    ActorRef b = counter("c1", probe);
    probe.expectMsg("recovered:55@10");
    client.send(b, new Add(5));
    assertEquals(new Total(60, 11), client.expectMsgClass(Total.class), "numbering goes on after the recovered events");
  }

  @Test
  void commandsWaitInTheStashUntilTheEventsOfTheOneBeforeAreHandled() {
    TestProbe probe = new TestProbe(system);
    control.gate = new CompletableFuture<>(); // the first write is held
    ActorRef a = counter("c2", probe, Recovery.create(), "controlled");
    probe.expectMsg("recovered:0@0");
    for (int i = 1; i <= 20; i++) {
      a.tell(new Add(i), ActorRef.noSender());
    }
    probe.expectMsg("cmd:1");
    probe.expectNoMessage(Duration.ofMillis(100)); // command 2 waits while event 1 is not stored
    control.gate.complete(null);
    for (int i = 1; i <= 20; i++) {
      if (i > 1) {
        probe.expectMsg("cmd:" + i);
      }
      probe.expectMsg("evt:" + i);
    }
  }

  @Test
  void persistAsyncDoesNotStashAndQueuedEventsGoInOneWrite() {
    TestProbe probe = new TestProbe(system);
    control.gate = new CompletableFuture<>();
    ActorRef a = counter("c3", probe, Recovery.create(), "controlled");
    probe.expectMsg("recovered:0@0");
    for (int i = 1; i <= 5; i++) {
      a.tell(new AddAsync(i), ActorRef.noSender());
    }
    for (int i = 1; i <= 5; i++) {
      probe.expectMsg("cmd:" + i); // every command runs while the first write is held
    }
    control.gate.complete(null);
    for (int i = 1; i <= 5; i++) {
      probe.expectMsg("evt:" + i);
    }
    assertEquals(List.of(1, 4), control.writeSizes, "the first event alone, then the four queued behind it in one write");
    TestProbe client = new TestProbe(system);
    client.send(a, Cmd.GET);
    assertEquals(new Total(15, 5), client.expectMsgClass(Total.class));
  }

  @Test
  void persistAllIsAtomicAndHandledInOrderAndDeferRunsAfterThePersistedHandlers() {
    TestProbe probe = new TestProbe(system);
    ActorRef a = counter("c4", probe);
    probe.expectMsg("recovered:0@0");
    a.tell(new AddAll(List.of(1, 2, 3)), ActorRef.noSender());
    probe.expectMsg("evt:1@1");
    probe.expectMsg("evt:2@2");
    probe.expectMsg("evt:3@3");
    a.tell(Cmd.DEFER, ActorRef.noSender());
    probe.expectMsg("evt:1");
    probe.expectMsg("deferred:after@7");
    a.tell(new AddAll(List.of()), ActorRef.noSender()); // nothing persisted, nothing handled
    TestProbe client = new TestProbe(system);
    client.send(a, Cmd.GET);
    assertEquals(new Total(7, 4), client.expectMsgClass(Total.class));
  }

  @Test
  void eachEventHandlerSeesTheSenderOfItsCommand() {
    TestProbe probe = new TestProbe(system);
    ActorRef a = counter("c5", probe);
    probe.expectMsg("recovered:0@0");
    List<TestProbe> clients = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      TestProbe c = new TestProbe(system);
      clients.add(c);
      c.send(a, new Add(1));
    }
    List<Long> numbers = new ArrayList<>();
    for (TestProbe c : clients) {
      numbers.add(c.expectMsgClass(Total.class).lastSequenceNr()); // each gets its own reply
    }
    assertEquals(8, numbers.stream().distinct().count(), "eight replies for eight events: " + numbers);
  }

  @Test
  void aSnapshotShortensRecoveryToTheEventsAfterIt() {
    TestProbe probe = new TestProbe(system);
    TestProbe client = new TestProbe(system);
    ActorRef a = counter("c6", probe, Recovery.create(), "controlled");
    probe.expectMsg("recovered:0@0");
    for (int i = 1; i <= 6; i++) {
      client.send(a, new Add(i));
      client.expectMsgClass(Total.class);
    }
    a.tell(Cmd.SNAPSHOT, ActorRef.noSender());
    SaveSnapshotSuccess saved = probe.fishForMessage(Duration.ofSeconds(5), "SaveSnapshotSuccess",
        m -> m instanceof SaveSnapshotSuccess) instanceof SaveSnapshotSuccess s ? s : null;
    assertEquals(6, saved.metadata().sequenceNr());
    client.send(a, new Add(100));
    client.expectMsgClass(Total.class);
    stopAndWait(client, a);
    int replaysBefore = control.replayCalls.get();

    ActorRef b = counter("c6", probe, Recovery.create(), "controlled");
    probe.fishForMessage(Duration.ofSeconds(5), "the snapshot offer", m -> m.equals("offer:21@6"));
    probe.expectMsg("recovered:121@7");
    assertEquals(1, control.replayCalls.get() - replaysBefore, "one event after the snapshot: one chunk");
    client.send(b, Cmd.GET);
    assertEquals(new Total(121, 7), client.expectMsgClass(Total.class));
  }

  @Test
  void recoveryReadsInChunksAndCanStopEarlyOrSkipEverything() {
    TestProbe probe = new TestProbe(system);
    TestProbe client = new TestProbe(system);
    ActorRef a = counter("c7", probe, Recovery.create(), "controlled");
    probe.expectMsg("recovered:0@0");
    for (int i = 1; i <= 10; i++) {
      client.send(a, new Add(1));
    }
    client.receiveN(10);
    stopAndWait(client, a);
    probe.receiveN(20);

    int before = control.replayCalls.get();
    counter("c7", probe, Recovery.create(), "controlled");
    probe.expectMsg("recovered:10@10");
    assertEquals(3, control.replayCalls.get() - before, "ten events in chunks of four: 4, 4, 2");

    ActorRef partial = counter("c7", probe, Recovery.create(6), "controlled");
    probe.expectMsg("recovered:6@6");
    client.send(partial, new Add(1));
    assertEquals(new Total(7, 11), client.expectMsgClass(Total.class), "a new event is numbered after every stored one");
    probe.expectMsg("cmd:1");
    probe.expectMsg("evt:1");

    ActorRef none = counter("c7", probe, Recovery.none(), "controlled");
    probe.expectMsg("recovered:0@0");
    client.send(none, new Add(1));
    assertEquals(new Total(1, 12), client.expectMsgClass(Total.class));
  }

  @Test
  void deletedEventsAreNotReplayedAndNumberingGoesOn() {
    TestProbe probe = new TestProbe(system);
    TestProbe client = new TestProbe(system);
    ActorRef a = counter("c8", probe);
    probe.expectMsg("recovered:0@0");
    for (int i = 1; i <= 5; i++) {
      client.send(a, new Add(i));
      client.expectMsgClass(Total.class);
    }
    a.tell(new Delete(3), ActorRef.noSender());
    probe.fishForMessage(Duration.ofSeconds(5), "DeleteMessagesSuccess", m -> m.equals(new DeleteMessagesSuccess(3)));
    a.tell(new Delete(99), ActorRef.noSender());
    DeleteMessagesFailure refused = (DeleteMessagesFailure) probe.fishForMessage(Duration.ofSeconds(5), "DeleteMessagesFailure",
        m -> m instanceof DeleteMessagesFailure);
    assertTrue(refused.cause().getMessage().contains("the last event is 5"), refused.cause().getMessage());
    stopAndWait(client, a);

    ActorRef b = counter("c8", probe);
    probe.fishForMessage(Duration.ofSeconds(5), "recovery of events 4 and 5", m -> m.equals("recovered:9@5"));
    client.send(b, new Add(1));
    assertEquals(new Total(10, 6), client.expectMsgClass(Total.class));
  }

  @Test
  void aFailingCommandRestartsTheActorWhichRecoversTheStoredState() {
    TestProbe probe = new TestProbe(system);
    TestProbe client = new TestProbe(system);
    ActorRef a = counter("c9", probe);
    probe.expectMsg("recovered:0@0");
    client.send(a, new Add(4));
    client.expectMsgClass(Total.class);
    a.tell(Cmd.FAIL, ActorRef.noSender());
    probe.fishForMessage(Duration.ofSeconds(5), "the restarted incarnation's recovery", m -> m.equals("recovered:4@1"));
    client.send(a, new Add(1));
    assertEquals(new Total(5, 2), client.expectMsgClass(Total.class));
  }

  @Test
  void aFailedWriteCallsOnPersistFailureAndStopsTheActor() {
    TestProbe probe = new TestProbe(system);
    ActorRef a = counter("c10", probe, Recovery.create(), "controlled");
    probe.expectMsg("recovered:0@0");
    probe.watch(a);
    control.failWrites = true;
    a.tell(new Add(1), ActorRef.noSender());
    probe.expectMsg("cmd:1");
    probe.expectMsg("failed:Added[n=1]@1:disk on fire");
    probe.expectTerminated(a);
  }

  @Test
  void aRejectedEventCallsOnPersistRejectedAndTheActorGoesOn() {
    TestProbe probe = new TestProbe(system);
    TestProbe client = new TestProbe(system);
    ActorRef a = counter("c11", probe, Recovery.create(), "controlled");
    probe.expectMsg("recovered:0@0");
    control.reject = Added.class;
    client.send(a, new Add(1));
    probe.expectMsg("cmd:1");
    probe.expectMsg("rejected:Added[n=1]@1");
    control.reject = null;
    client.send(a, new Add(2)); // not stashed for ever: the rejection ended the first command's wait
    probe.expectMsg("cmd:2");
    probe.expectMsg("evt:2");
    assertEquals(new Total(2, 2), client.expectMsgClass(Total.class));
  }

  @Test
  void aFailingRecoveryCallsOnRecoveryFailureAndStopsTheActor() {
    TestProbe probe = new TestProbe(system);
    control.failReplay = true;
    ActorRef a = counter("c12", probe, Recovery.create(), "controlled");
    probe.watch(a);
    probe.expectMsg("recovery-failed:unreadable:-");
    probe.expectTerminated(a);
  }

  @Test
  void aSecondWriterOfOneIdIsStoppedByTheJournal() {
    TestProbe probe = new TestProbe(system);
    TestProbe client = new TestProbe(system);
    ActorRef first = counter("c13", probe);
    probe.expectMsg("recovered:0@0");
    TestProbe probe2 = new TestProbe(system);
    ActorRef second = counter("c13", probe2);
    probe2.expectMsg("recovered:0@0");
    client.send(first, new Add(1));
    client.expectMsgClass(Total.class);
    probe2.watch(second);
    second.tell(new Add(1), ActorRef.noSender());
    probe2.expectMsg("cmd:1");
    String failed = (String) probe2.receiveOne(Duration.ofSeconds(5));
    assertTrue(failed.startsWith("failed:Added[n=1]@1:") && failed.contains("two writers"), failed);
    probe2.expectTerminated(second);
  }

  @Test
  void behavioursInstalledWithBecomeKeepTheProtocol() {
    TestProbe probe = new TestProbe(system);
    control.gate = new CompletableFuture<>();
    ActorRef a = counter("c14", probe, Recovery.create(), "controlled");
    probe.expectMsg("recovered:0@0");
    a.tell(Cmd.BECOME_QUIET, ActorRef.noSender());
    a.tell(new Add(1), ActorRef.noSender());
    a.tell(Cmd.GET, ActorRef.noSender()); // unhandled by the new behaviour: published, never reaches the probe
    a.tell(new Add(2), ActorRef.noSender());
    probe.expectNoMessage(Duration.ofMillis(100));
    control.gate.complete(null);
    probe.expectMsg("quiet-evt:1");
    probe.expectMsg("quiet-evt:2");
  }

  @Test
  void persistingWhileRecoveringIsRefusedAndStopsTheActor() {
    TestProbe probe = new TestProbe(system);
    ActorRef bad = system.actorOf(Props.create(PersistsInRecovery.class, () -> new PersistsInRecovery(probe.getRef())));
    probe.watch(bad);
    String failure = (String) probe.receiveOne(Duration.ofSeconds(5));
    assertTrue(failure.contains("cannot persist while it recovers"), failure);
    probe.expectTerminated(bad);
  }

  static final class PersistsInRecovery extends AbstractPersistentActor {
    private final ActorRef probe;

    PersistsInRecovery(ActorRef probe) {
      this.probe = probe;
    }

    @Override
    public String persistenceId() {
      return "bad";
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder().match(RecoveryCompleted.class, r -> {}).matchAny(e -> {}).build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }

    @Override
    public void preStart() {
      try {
        persist("x", e -> {});
      } catch (IllegalStateException e) {
        probe.tell(e.getMessage(), getSelf());
        getContext().stop(getSelf());
      }
    }
  }

  @Test
  void messagesThatArriveWhileRecoveringAreHandledAfterItInOrderTerminatedIncluded() {
    TestProbe probe = new TestProbe(system);
    ActorRef watched = system.actorOf(Props.create(dev.troupe.actor.AbstractActor.class, () -> new dev.troupe.actor.AbstractActor() {
      @Override
      public Receive createReceive() {
        return receiveBuilder().build();
      }
    }));
    control.replayGate = new CompletableFuture<>();
    ActorRef a = system.actorOf(Props.create(Counter.class, () -> new Counter("c16", probe.getRef(), Recovery.create(), "controlled") {
      @Override
      public void preStart() {
        getContext().watch(watched);
      }
    }));
    a.tell("first", ActorRef.noSender());
    system.stop(watched);
    a.tell("second", ActorRef.noSender());
    probe.expectNoMessage(Duration.ofMillis(100)); // all three wait while the replay is held
    control.replayGate.complete(null);
    probe.expectMsg("recovered:0@0");
    assertEquals("first", probe.receiveOne(Duration.ofSeconds(5)));
    Object next = probe.receiveOne(Duration.ofSeconds(5));
    Object last = probe.receiveOne(Duration.ofSeconds(5));
    // the stop and the second tell race from this thread's view; both arrive, each once
    assertTrue(next.equals("second") && last instanceof dev.troupe.actor.Terminated
        || next instanceof dev.troupe.actor.Terminated && last.equals("second"), next + ", " + last);
    probe.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void aPluginThatNeverAnswersFailsTheWriteOrTheRecoveryAfterTheCallTimeout() {
    ActorSystem slow = ActorSystem.create("persistent-slow-" + SYSTEMS.incrementAndGet(), ConfigFactory.parseString("""
        troupe.persistence.call-timeout = 300ms
        controlled { class = "dev.troupe.persistence.ControlledJournal" }
        """).withFallback(ConfigFactory.load()));
    try {
      ControlledJournal.Control c = ControlledJournal.control(slow);
      TestProbe probe = new TestProbe(slow);
      c.gate = new CompletableFuture<>(); // writes never answer
      ActorRef writer = slow.actorOf(Props.create(Counter.class, () -> new Counter("t1", probe.getRef(), Recovery.create(), "controlled")));
      probe.expectMsg("recovered:0@0");
      probe.watch(writer);
      writer.tell(new Add(1), ActorRef.noSender());
      probe.expectMsg("cmd:1");
      String failed = (String) probe.receiveOne(Duration.ofSeconds(5));
      assertTrue(failed.startsWith("failed:Added[n=1]@1:write of persistence id [t1] got no answer within 300 ms"), failed);
      probe.expectTerminated(writer);

      c.replayGate = new CompletableFuture<>(); // reads never answer
      ActorRef reader = slow.actorOf(Props.create(Counter.class, () -> new Counter("t2", probe.getRef(), Recovery.create(), "controlled")));
      probe.watch(reader);
      String recovery = (String) probe.receiveOne(Duration.ofSeconds(5));
      assertTrue(recovery.startsWith("recovery-failed:replay of persistence id [t2] got no answer within 300 ms"), recovery);
      probe.expectTerminated(reader);
    } finally {
      TestKit.shutdownActorSystem(slow);
    }
  }

  @Test
  void anUnknownPluginFailsTheActorAtStartNamingTheSection() {
    TestProbe probe = new TestProbe(system);
    ActorRef a = counter("c15", probe, Recovery.create(), "no.such.plugin");
    probe.watch(a);
    probe.expectTerminated(a);
    var e = org.junit.jupiter.api.Assertions.assertThrows(dev.troupe.actor.ConfigurationException.class,
        () -> Persistence.get(system).journalFor("no.such.plugin"));
    assertTrue(e.getMessage().contains("no.such.plugin"), e.getMessage());
    assertInstanceOf(dev.troupe.persistence.spi.Journal.class, Persistence.get(system).journalFor("controlled"));
  }
}
