package dev.troupe.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * At-least-once delivery of a classic persistent actor: redelivery until confirmed, the delivery
 * state rebuilt by recovery and sent once it completes, the burst limit, warnings, the bound on
 * unconfirmed deliveries, snapshots of the state, and ticks while a write is held. Redelivery
 * ticks every 50 ms here (an interval of 100 ms); the tests wait for what must come with generous
 * bounds and never rely on how soon a tick comes.
 */
@Timeout(120)
class AtLeastOnceDeliveryTest {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();
  private static final Duration LONG = Duration.ofSeconds(15);
  private ActorSystem system;
  private ControlledJournal.Control control;

  @BeforeEach
  void start() {
    system = ActorSystem.create("alo-" + SYSTEMS.incrementAndGet(), ConfigFactory.parseString("""
        troupe.persistence.replay-batch-size = 2
        troupe.persistence.at-least-once-delivery.redeliver-interval = 100ms
        troupe.persistence.at-least-once-delivery.warn-after-number-of-unconfirmed-attempts = 1000000
        controlled { class = "dev.troupe.persistence.ControlledJournal" }
        """).withFallback(ConfigFactory.load()));
    control = ControlledJournal.control(system);
  }

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  // ------------------------------------------------------------------ the actor under test

  record Send(String text) {}

  record Sent(String text) {}

  record Msg(long deliveryId, String text) {}

  record Confirm(long deliveryId) {}

  record Confirmed(long deliveryId) {}

  /** Delivers without persisting; answers "delivered:id" or the exception. */
  record DeliverNow(String text) {}

  /** Delivers to a selection of this path (a full path, possibly with wildcards). */
  record DeliverToSelection(String path, String text) {}

  record SetSnapshot(AtLeastOnceDeliverySnapshot snapshot) {}

  enum Cmd { COUNT, GET_SNAPSHOT, SAVE_SNAPSHOT, FAIL }

  /** How an incarnation is made; null settings keep the configured ones. */
  record Setup(String id, ActorPath destination, ActorRef log, String journal, Integer burst, Integer warnAfter, Integer max) {
    Setup(String id, ActorPath destination, ActorRef log) {
      this(id, destination, log, "", null, null, null);
    }
  }

  /**
   * Delivers a Msg for each Sent event, confirms for each Confirmed event; tells its log what it
   * does: "replayed:text", "recovered:unconfirmed", "cmd:text", "evt:text", "confirmed:id:result",
   * "offer", "snapshot-saved", and every UnconfirmedWarning.
   */
  static final class Deliverer extends AbstractPersistentActorWithAtLeastOnceDelivery {
    private final Setup setup;

    Deliverer(Setup setup) {
      this.setup = setup;
    }

    @Override
    public String persistenceId() {
      return setup.id();
    }

    @Override
    public String journalPluginId() {
      return setup.journal();
    }

    @Override
    public int redeliveryBurstLimit() {
      return setup.burst() != null ? setup.burst() : super.redeliveryBurstLimit();
    }

    @Override
    public int warnAfterNumberOfUnconfirmedAttempts() {
      return setup.warnAfter() != null ? setup.warnAfter() : super.warnAfterNumberOfUnconfirmedAttempts();
    }

    @Override
    public int maxUnconfirmedMessages() {
      return setup.max() != null ? setup.max() : super.maxUnconfirmedMessages();
    }

    private void log(Object what) {
      setup.log().tell(what, getSelf());
    }

    private void apply(Sent e) {
      deliver(setup.destination(), id -> new Msg(id, e.text()));
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder()
          .match(Sent.class, e -> {
            apply(e);
            log("replayed:" + e.text());
          })
          .match(Confirmed.class, e -> confirmDelivery(e.deliveryId()))
          .match(SnapshotOffer.class, o -> {
            setDeliverySnapshot((AtLeastOnceDeliverySnapshot) o.snapshot());
            log("offer");
          })
          .match(RecoveryCompleted.class, r -> log("recovered:" + numberOfUnconfirmed()))
          .build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Send.class, c -> {
            log("cmd:" + c.text());
            persist(new Sent(c.text()), e -> {
              apply(e);
              log("evt:" + e.text());
            });
          })
          .match(Confirm.class, c -> persist(new Confirmed(c.deliveryId()),
              e -> log("confirmed:" + e.deliveryId() + ":" + confirmDelivery(e.deliveryId()))))
          .match(DeliverNow.class, c -> {
            try {
              deliver(setup.destination(), id -> new Msg(id, c.text()));
              getSender().tell("delivered:" + getDeliverySnapshot().currentDeliveryId(), getSelf());
            } catch (MaxUnconfirmedMessagesExceededException e) {
              getSender().tell(e, getSelf());
            }
          })
          .match(DeliverToSelection.class, c -> {
            try {
              deliver(getContext().actorSelection(c.path()), id -> new Msg(id, c.text()));
              getSender().tell("delivered:" + getDeliverySnapshot().currentDeliveryId(), getSelf());
            } catch (IllegalArgumentException e) {
              getSender().tell(e, getSelf());
            }
          })
          .match(SetSnapshot.class, c -> setDeliverySnapshot(c.snapshot()))
          .matchEquals(Cmd.COUNT, c -> getSender().tell(numberOfUnconfirmed(), getSelf()))
          .matchEquals(Cmd.GET_SNAPSHOT, c -> getSender().tell(getDeliverySnapshot(), getSelf()))
          .matchEquals(Cmd.SAVE_SNAPSHOT, c -> saveSnapshot(getDeliverySnapshot()))
          .matchEquals(Cmd.FAIL, c -> {
            throw new IllegalStateException("boom");
          })
          .match(SaveSnapshotSuccess.class, s -> log("snapshot-saved"))
          .match(UnconfirmedWarning.class, this::log)
          .build();
    }
  }

  private ActorRef deliverer(Setup setup) {
    return system.actorOf(Props.create(Deliverer.class, () -> new Deliverer(setup)));
  }

  private static void stopAndWait(TestProbe watcher, ActorRef ref) {
    watcher.watch(ref);
    ref.tell(PoisonPill.getInstance(), ActorRef.noSender());
    watcher.expectTerminated(ref);
  }

  /** The next message that is a Msg, skipping the others (log lines on a probe that is both). */
  private static Msg nextMsg(TestProbe probe) {
    return (Msg) probe.fishForMessage(LONG, "a delivered Msg", m -> m instanceof Msg);
  }

  /** Receives Msgs until {@code wanted} came {@code times} more times; none may be {@code forbidden}. */
  private static void awaitRedeliveries(TestProbe dest, Msg wanted, int times, Msg forbidden) {
    int seen = 0;
    while (seen < times) {
      Object m = dest.receiveOne(LONG);
      assertTrue(m != null, "waited for " + wanted + " to come again");
      assertFalse(m.equals(forbidden), "no redelivery of " + forbidden + " once it is confirmed");
      if (m.equals(wanted)) {
        seen++;
      }
    }
  }

  /** Receives until the answer of the given type, skipping the Msgs that came before it. */
  private static <T> T answerAfterMsgs(TestProbe probe, Class<T> type) {
    while (true) {
      Object m = probe.receiveOne(LONG);
      assertTrue(m != null, "waited for a " + type.getSimpleName());
      if (type.isInstance(m)) {
        return type.cast(m);
      }
      assertInstanceOf(Msg.class, m, "only deliveries come before the answer");
    }
  }

  // ------------------------------------------------------------------ tests

  @Test
  void deliveriesAreSentAgainUntilConfirmedWithIdsFromOne() {
    TestProbe log = new TestProbe(system);
    TestProbe dest = new TestProbe(system);
    ActorRef a = deliverer(new Setup("d1", dest.getRef().path(), log.getRef()));
    log.expectMsg("recovered:0");
    a.tell(new Send("a"), ActorRef.noSender());
    a.tell(new Send("b"), ActorRef.noSender());
    log.expectMsg("cmd:a");
    log.expectMsg("evt:a");
    log.expectMsg("cmd:b");
    log.expectMsg("evt:b");
    assertEquals(new Msg(1, "a"), dest.expectMsgClass(Msg.class), "sent at once, id 1");
    assertEquals(new Msg(2, "b"), dest.expectMsgClass(Msg.class), "sent at once, id 2");
    awaitRedeliveries(dest, new Msg(1, "a"), 2, null);

    dest.send(a, new Confirm(1));
    log.expectMsg("confirmed:1:true");
    dest.send(a, new Confirm(1));
    log.expectMsg("confirmed:1:false"); // already confirmed
    dest.send(a, new Confirm(99));
    log.expectMsg("confirmed:99:false"); // unknown
    dest.send(a, Cmd.COUNT); // answered after every delivery it sent before
    assertEquals(1, answerAfterMsgs(dest, Integer.class));
    awaitRedeliveries(dest, new Msg(2, "b"), 2, new Msg(1, "a"));

    dest.send(a, new Confirm(2));
    log.expectMsg("confirmed:2:true");
    dest.send(a, Cmd.COUNT);
    assertEquals(0, answerAfterMsgs(dest, Integer.class));
    dest.expectNoMessage(Duration.ofMillis(500)); // nothing unconfirmed: nothing is sent again

    a.tell(new Send("c"), ActorRef.noSender());
    assertEquals(new Msg(3, "c"), dest.expectMsgClass(LONG, Msg.class), "ids go on increasing");
  }

  @Test
  void recoveryRecordsTheDeliveriesAndSendsTheUnconfirmedOnesOnlyOnceItCompletes() {
    TestProbe log = new TestProbe(system);
    TestProbe dest = new TestProbe(system);
    ActorRef a = deliverer(new Setup("d2", dest.getRef().path(), log.getRef()));
    log.expectMsg("recovered:0");
    for (String t : List.of("a", "b", "c")) {
      a.tell(new Send(t), ActorRef.noSender());
    }
    a.tell(new Confirm(2), ActorRef.noSender());
    log.fishForMessage(LONG, "the confirmation", m -> m.equals("confirmed:2:true"));
    stopAndWait(log, a);

    // the next incarnation tells its log and its destination to one probe: their order shows
    // that nothing is sent while events are replayed (in chunks of 2), and what is sent at the end
    TestProbe both = new TestProbe(system);
    ActorRef b = deliverer(new Setup("d2", both.getRef().path(), both.getRef()));
    both.expectMsg("replayed:a");
    both.expectMsg("replayed:b");
    both.expectMsg("replayed:c");
    assertEquals(new Msg(1, "a"), both.expectMsgClass(Msg.class), "the unconfirmed ones, once every event is replayed");
    assertEquals(new Msg(3, "c"), both.expectMsgClass(Msg.class));
    both.expectMsg("recovered:2");

    b.tell(new Send("d"), ActorRef.noSender());
    while (true) {
      Object m = both.receiveOne(LONG);
      assertTrue(m != null, "waited for the new delivery");
      assertFalse(m instanceof Msg x && x.deliveryId() == 2, "the confirmed delivery is not sent again: " + m);
      if (m instanceof Msg x && x.text().equals("d")) {
        assertEquals(4, x.deliveryId(), "ids go on after the recovered ones");
        break;
      }
    }
  }

  @Test
  void aRestartedActorRecoversItsDeliveriesAndSendsThemAgain() {
    TestProbe log = new TestProbe(system);
    TestProbe dest = new TestProbe(system);
    ActorRef a = deliverer(new Setup("d3", dest.getRef().path(), log.getRef()));
    log.expectMsg("recovered:0");
    a.tell(new Send("a"), ActorRef.noSender());
    assertEquals(new Msg(1, "a"), dest.expectMsgClass(Msg.class));
    a.tell(Cmd.FAIL, ActorRef.noSender()); // the supervisor restarts it: a new incarnation recovers
    log.fishForMessage(LONG, "the restarted incarnation's recovery", m -> m.equals("recovered:1"));
    a.tell(new Send("b"), ActorRef.noSender());
    Msg m;
    while ((m = nextMsg(dest)).equals(new Msg(1, "a"))) {
      // sent again, by either incarnation
    }
    assertEquals(new Msg(2, "b"), m, "the restarted incarnation goes on from the recovered id");
    dest.send(a, new Confirm(1));
    dest.send(a, new Confirm(2));
    log.fishForMessage(LONG, "the second confirmation", x -> x.equals("confirmed:2:true"));
    dest.send(a, Cmd.COUNT);
    assertEquals(0, answerAfterMsgs(dest, Integer.class));
  }

  @Test
  void eachTickSendsAtMostTheBurstLimitOldestFirstAndWarnsOncePerDelivery() {
    TestProbe log = new TestProbe(system);
    TestProbe dest = new TestProbe(system);
    ActorRef a = deliverer(new Setup("d4", dest.getRef().path(), log.getRef(), "", 2, 1, null));
    log.expectMsg("recovered:0");
    TestProbe client = new TestProbe(system);
    for (int i = 1; i <= 5; i++) {
      client.send(a, new DeliverNow("m" + i));
      client.expectMsg("delivered:" + i);
    }
    // with a warning after 1 attempt, each tick's warning lists the deliveries it sent again for
    // the first time: at most 2 per tick, the oldest attempts first, each delivery once
    List<Long> warned = new ArrayList<>();
    while (warned.size() < 5) {
      UnconfirmedWarning w = log.expectMsgClass(LONG, UnconfirmedWarning.class);
      int n = w.unconfirmedDeliveries().size();
      assertTrue(n >= 1 && n <= 2, "at most the burst limit per tick: " + w);
      for (UnconfirmedDelivery d : w.getUnconfirmedDeliveries()) {
        assertEquals(new Msg(d.deliveryId(), "m" + d.deliveryId()), d.message());
        assertEquals(dest.getRef().path(), d.destination());
        warned.add(d.deliveryId());
      }
    }
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), warned, "oldest first, each once");
  }

  @Test
  void recoverySendsAtMostTheBurstLimitAndTheNextTicksTheRest() {
    TestProbe log = new TestProbe(system);
    TestProbe dest = new TestProbe(system);
    ActorRef a = deliverer(new Setup("d5", dest.getRef().path(), log.getRef()));
    log.expectMsg("recovered:0");
    for (int i = 1; i <= 5; i++) {
      a.tell(new Send("m" + i), ActorRef.noSender());
    }
    for (int i = 1; i <= 5; i++) {
      log.expectMsg("cmd:m" + i);
      log.expectMsg("evt:m" + i);
    }
    stopAndWait(log, a);

    TestProbe both = new TestProbe(system);
    deliverer(new Setup("d5", both.getRef().path(), both.getRef(), "", 2, null, null));
    for (int i = 1; i <= 5; i++) {
      both.expectMsg("replayed:m" + i);
    }
    assertEquals(new Msg(1, "m1"), both.expectMsgClass(Msg.class));
    assertEquals(new Msg(2, "m2"), both.expectMsgClass(Msg.class));
    both.expectMsg("recovered:5"); // two of five: the burst limit
    assertEquals(new Msg(3, "m3"), nextMsg(both), "the never sent ones come first at the next ticks");
    assertEquals(new Msg(4, "m4"), nextMsg(both));
    assertEquals(new Msg(5, "m5"), nextMsg(both));
  }

  @Test
  void anUnconfirmedWarningComesOnceAfterTheConfiguredNumberOfAttempts() {
    TestProbe both = new TestProbe(system);
    ActorRef a = deliverer(new Setup("d6", both.getRef().path(), both.getRef(), "", null, 2, null));
    both.expectMsg("recovered:0");
    TestProbe client = new TestProbe(system);
    client.send(a, new DeliverNow("x"));
    client.expectMsg("delivered:1");
    Msg x = new Msg(1, "x");
    // the warning is sent to the actor by the tick of the third attempt, before the next tick
    for (int attempt = 1; attempt <= 3; attempt++) {
      assertEquals(x, both.expectMsgClass(LONG, Msg.class), "attempt " + attempt);
    }
    assertEquals(new UnconfirmedWarning(List.of(new UnconfirmedDelivery(1, both.getRef().path(), x))),
        both.expectMsgClass(LONG, UnconfirmedWarning.class));
    for (int attempt = 4; attempt <= 6; attempt++) {
      assertEquals(x, both.expectMsgClass(LONG, Msg.class), "attempt " + attempt + ", and no second warning");
    }
  }

  @Test
  void deliverThrowsBeyondTheMostUnconfirmedDeliveriesWithoutUsingAnId() {
    TestProbe log = new TestProbe(system);
    TestProbe dest = new TestProbe(system);
    ActorRef a = deliverer(new Setup("d7", dest.getRef().path(), log.getRef(), "", null, null, 2));
    log.expectMsg("recovered:0");
    TestProbe client = new TestProbe(system);
    client.send(a, new DeliverNow("a"));
    client.expectMsg("delivered:1");
    client.send(a, new DeliverNow("b"));
    client.expectMsg("delivered:2");
    client.send(a, new DeliverNow("c"));
    MaxUnconfirmedMessagesExceededException e = client.expectMsgClass(MaxUnconfirmedMessagesExceededException.class);
    assertTrue(e.getMessage().contains("[d7] has 2 unconfirmed deliveries"), e.getMessage());
    client.send(a, new Confirm(1));
    log.expectMsg("confirmed:1:true");
    client.send(a, new DeliverNow("d"));
    client.expectMsg("delivered:3");
    client.send(a, Cmd.COUNT);
    client.expectMsg(2);
  }

  @Test
  void theDeliveryStateRoundTripsThroughASnapshot() {
    TestProbe log = new TestProbe(system);
    TestProbe dest = new TestProbe(system);
    ActorPath path = dest.getRef().path();
    ActorRef a = deliverer(new Setup("d8", path, log.getRef()));
    log.expectMsg("recovered:0");
    for (String t : List.of("a", "b", "c")) {
      a.tell(new Send(t), ActorRef.noSender());
    }
    a.tell(new Confirm(2), ActorRef.noSender());
    log.fishForMessage(LONG, "the confirmation", m -> m.equals("confirmed:2:true"));
    TestProbe client = new TestProbe(system);
    client.send(a, Cmd.GET_SNAPSHOT);
    AtLeastOnceDeliverySnapshot expected = new AtLeastOnceDeliverySnapshot(3, List.of(
        new UnconfirmedDelivery(1, path, new Msg(1, "a")), new UnconfirmedDelivery(3, path, new Msg(3, "c"))));
    assertEquals(expected, client.expectMsgClass(AtLeastOnceDeliverySnapshot.class));
    a.tell(Cmd.SAVE_SNAPSHOT, ActorRef.noSender());
    log.expectMsg("snapshot-saved");
    stopAndWait(log, a);

    // the snapshot names dest: the next incarnation logs to it too, after what the first sent it
    dest.getRef().tell("drained", ActorRef.noSender());
    dest.fishForMessage(LONG, "the first incarnation's deliveries", m -> m.equals("drained"));
    ActorRef b = deliverer(new Setup("d8", path, dest.getRef()));
    dest.expectMsg("offer"); // no events after the snapshot
    assertEquals(new Msg(1, "a"), dest.expectMsgClass(Msg.class), "restored deliveries are sent when recovery completes");
    assertEquals(new Msg(3, "c"), dest.expectMsgClass(Msg.class));
    dest.expectMsg("recovered:2");
    client.send(b, Cmd.GET_SNAPSHOT);
    assertEquals(expected, client.expectMsgClass(AtLeastOnceDeliverySnapshot.class));

    // set on a live actor: the state is replaced, its deliveries go out at the next tick
    AtLeastOnceDeliverySnapshot other = new AtLeastOnceDeliverySnapshot(10, List.of(new UnconfirmedDelivery(7, path, new Msg(7, "g"))));
    b.tell(new SetSnapshot(other), ActorRef.noSender());
    client.send(b, Cmd.GET_SNAPSHOT);
    assertEquals(other, client.expectMsgClass(AtLeastOnceDeliverySnapshot.class));
    dest.fishForMessage(LONG, "the restored delivery", m -> m.equals(new Msg(7, "g")));
    client.send(b, new DeliverNow("h"));
    client.expectMsg("delivered:11");
  }

  @Test
  void ticksWhileAWriteIsHeldSendAgainWithoutDisturbingTheOrderOfCommandsAndEvents() {
    TestProbe log = new TestProbe(system);
    TestProbe dest = new TestProbe(system);
    ActorRef a = deliverer(new Setup("d9", dest.getRef().path(), log.getRef(), "controlled", null, null, null));
    log.expectMsg("recovered:0");
    a.tell(new Send("a"), ActorRef.noSender());
    log.expectMsg("cmd:a");
    log.expectMsg("evt:a");
    assertEquals(new Msg(1, "a"), dest.expectMsgClass(Msg.class));

    control.gate = new CompletableFuture<>(); // the next write is held
    a.tell(new Send("b"), ActorRef.noSender());
    a.tell(new Send("c"), ActorRef.noSender());
    a.tell(Cmd.COUNT, log.getRef());
    log.expectMsg("cmd:b");
    // ticks are handled while b's event is not stored and c waits in the stash: 1 is sent again, twice
    awaitRedeliveries(dest, new Msg(1, "a"), 2, null);
    log.expectNoMessage(Duration.ofMillis(200)); // c still waits

    control.gate.complete(null);
    log.expectMsg(LONG, "evt:b");
    log.expectMsg("cmd:c");
    log.expectMsg("evt:c");
    assertEquals(3, log.expectMsgClass(Integer.class), "the commands in the order they came, the ticks in none of them");
    List<Long> firsts = new ArrayList<>();
    while (firsts.size() < 3) {
      Msg m = nextMsg(dest);
      if (!firsts.contains(m.deliveryId())) {
        firsts.add(m.deliveryId());
      }
    }
    assertEquals(List.of(1L, 2L, 3L), firsts);
    dest.send(a, new Confirm(2)); // waits for no write held any more
    log.expectMsg(LONG, "confirmed:2:true");
  }

  @Test
  void deliverTakesASelectionWithoutWildcards() {
    TestProbe log = new TestProbe(system);
    TestProbe dest = new TestProbe(system);
    ActorRef a = deliverer(new Setup("d10", dest.getRef().path(), log.getRef()));
    log.expectMsg("recovered:0");
    TestProbe client = new TestProbe(system);
    client.send(a, new DeliverToSelection(dest.getRef().path().toString(), "s"));
    client.expectMsg("delivered:1");
    assertEquals(new Msg(1, "s"), dest.expectMsgClass(Msg.class));
    client.send(a, Cmd.GET_SNAPSHOT);
    UnconfirmedDelivery d = client.expectMsgClass(AtLeastOnceDeliverySnapshot.class).unconfirmedDeliveries().get(0);
    assertEquals(dest.getRef().path(), d.destination(), "the selection's path");

    String parent = dest.getRef().path().parent().toString();
    client.send(a, new DeliverToSelection(parent + "/*", "w"));
    IllegalArgumentException e = client.expectMsgClass(IllegalArgumentException.class);
    assertTrue(e.getMessage().contains("wildcard"), e.getMessage());
    client.send(a, Cmd.COUNT);
    client.expectMsg(1);
  }

  @Test
  void theSettingsHaveTheirDefaultsAndMalformedValuesFailNamingTheKey() {
    ActorSystem plain = ActorSystem.create("alo-defaults-" + SYSTEMS.incrementAndGet(), ConfigFactory.load());
    try {
      Persistence p = Persistence.get(plain);
      assertEquals(Duration.ofSeconds(5), p.redeliverInterval());
      assertEquals(10000, p.redeliveryBurstLimit());
      assertEquals(5, p.warnAfterNumberOfUnconfirmedAttempts());
      assertEquals(100000, p.maxUnconfirmedMessages());
    } finally {
      TestKit.shutdownActorSystem(plain);
    }
    String prefix = "troupe.persistence.at-least-once-delivery.";
    List<String[]> bad = List.of(
        new String[] {"redeliver-interval", "0s"},
        new String[] {"redeliver-interval", "-1s"},
        new String[] {"redeliver-interval", "often"},
        new String[] {"redelivery-burst-limit", "0"},
        new String[] {"warn-after-number-of-unconfirmed-attempts", "-1"},
        new String[] {"max-unconfirmed-messages", "0"},
        new String[] {"max-unconfirmed-messages", "many"});
    for (String[] kv : bad) {
      ActorSystem s = ActorSystem.create("alo-bad-" + SYSTEMS.incrementAndGet(),
          ConfigFactory.parseString(prefix + kv[0] + " = " + kv[1]).withFallback(ConfigFactory.load()));
      try {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> Persistence.get(s), kv[0] + " = " + kv[1]);
        assertTrue(e.getMessage().contains(prefix + kv[0]), e.getMessage());
      } finally {
        TestKit.shutdownActorSystem(s);
      }
    }
  }
}
