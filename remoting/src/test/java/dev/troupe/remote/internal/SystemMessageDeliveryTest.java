package dev.troupe.remote.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.remote.QuarantinedEvent;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * System messages cross exactly once and in order, through a {@link FaultRelay} that holds, loses
 * and resets the link from node a to node b; when that promise cannot be kept, b's incarnation is
 * quarantined. Node b is reached only through the relay (its canonical port is the relay's); b's
 * own connections to a go direct.
 */
class SystemMessageDeliveryTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final String BASE =
      "troupe.actor.provider = remote\n"
          + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
          + "troupe.remote.canonical.port = 0\n"
          + "troupe.remote.advanced.system-message-resend-interval = 200ms\n"
          + "troupe.remote.advanced.reconnect-min-backoff = 20ms\n"
          + "troupe.remote.advanced.reconnect-max-backoff = 200ms\n"
          + "troupe.remote.advanced.reconnect-attempts = 50\n";

  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(BASE);

  private final List<FaultRelay> relays = new ArrayList<>();
  private final List<ActorSystem> named = new ArrayList<>();

  /** Does nothing but live. */
  public static final class Idle extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  @AfterEach
  void closeRelays() {
    named.forEach(TestKit::shutdownActorSystem);
    relays.forEach(FaultRelay::close);
  }

  /** A node reached only through a new relay. */
  private ActorSystem behindRelay(FaultRelay relay, String extra) {
    ActorSystem b =
        troupe.createSystem(
            "troupe.remote.canonical.port = " + relay.port() + "\ntroupe.remote.bind.port = 0\n" + extra);
    relay.target(provider(b).boundPort());
    return b;
  }

  private FaultRelay relay() {
    FaultRelay r = new FaultRelay();
    relays.add(r);
    return r;
  }

  private static RemoteActorRefProvider provider(ActorSystem s) {
    return (RemoteActorRefProvider) ((RuntimeSystem) s).provider();
  }

  private static void await(ActorSystem s, String what, BooleanSupplier condition) {
    new TestKit(s).awaitCond(WAIT, Duration.ofMillis(10), "not within " + WAIT + ": " + what, condition::getAsBoolean);
  }

  /**
   * Opens a's control lane to b: {@code probe} watches an extra actor there, and the watch is
   * acknowledged (system message 1).
   */
  private static Association controlLaneUp(ActorSystem a, ActorSystem b, TestKit probe) {
    probe.watch(actorsOn(b, a, "anchor", 1).get(0));
    Association toB = provider(a).association(b.address());
    await(a, "the first watch acknowledged", () -> toB.outbox().acknowledged() == 1);
    return toB;
  }

  /**
   * Node a (configured with {@code aConfig}) watching the first of {@code n} actors on node b behind
   * a relay, that watch acknowledged, and a's quarantine events going to {@code events}.
   */
  private record Watching(
      FaultRelay relay, ActorSystem a, ActorSystem b, List<ActorRef> watched, TestKit probe, TestKit events,
      Association toB, long bUid) {
    /** @return the one {@code QuarantinedEvent}, which must name b's incarnation */
    QuarantinedEvent expectBQuarantined() {
      QuarantinedEvent q = events.expectMsgClass(WAIT, QuarantinedEvent.class);
      assertEquals(new QuarantinedEvent(b.address(), bUid), q);
      return q;
    }

    /** @return the actors of the next {@code n} {@code Terminated} the probe gets */
    Set<ActorRef> terminated(int n) {
      Set<ActorRef> heard = new HashSet<>();
      for (Object m : probe.receiveN(n, WAIT)) {
        heard.add(((Terminated) m).actor());
      }
      return heard;
    }
  }

  private Watching watchingFirstOf(String aConfig, String prefix, int n) {
    FaultRelay relay = relay();
    ActorSystem a = troupe.createSystem(aConfig);
    ActorSystem b = behindRelay(relay, "");
    List<ActorRef> watched = actorsOn(b, a, prefix, n);
    TestKit probe = new TestKit(a);
    TestKit events = new TestKit(a);
    a.eventStream().subscribe(events.getRef(), QuarantinedEvent.class);
    probe.watch(watched.get(0));
    Association toB = provider(a).association(b.address());
    await(a, "the first watch acknowledged", () -> toB.outbox().acknowledged() == 1);
    return new Watching(relay, a, b, watched, probe, events, toB, provider(b).uid());
  }

  /** Starts {@code n} actors on {@code b} and looks each up from {@code a}. */
  private static List<ActorRef> actorsOn(ActorSystem b, ActorSystem a, String prefix, int n) {
    List<CompletableFuture<ActorRef>> refs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      b.actorOf(Props.create(Idle.class), prefix + i);
      refs.add(a.actorSelection(b.address() + "/user/" + prefix + i).resolveOne(WAIT).toCompletableFuture());
    }
    List<ActorRef> out = new ArrayList<>();
    for (CompletableFuture<ActorRef> f : refs) {
      out.add(f.join());
    }
    return out;
  }

  /** Stops the actors on b (by name) and expects one confirmed {@code Terminated} for each, and nothing more. */
  private static void stopAndExpectEachTerminatedOnce(ActorSystem b, TestKit probe, List<ActorRef> watched) {
    for (ActorRef r : watched) {
      b.actorSelection(r.path().toStringWithoutAddress()).tell(PoisonPill.getInstance(), ActorRef.noSender());
    }
    Set<ActorRef> heard = new HashSet<>();
    for (Object m : probe.receiveN(watched.size(), WAIT)) {
      Terminated t = (Terminated) m;
      assertTrue(t.existenceConfirmed(), "the watch was in place when the actor stopped: " + t);
      assertTrue(heard.add(t.actor()), "a second Terminated for " + t.actor());
    }
    assertEquals(new HashSet<>(watched), heard);
    probe.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void systemMessagesThatABrokenLinkSwallowedAreResentAndTakeEffectOnce() {
    FaultRelay relay = relay();
    ActorSystem a = troupe.system();
    ActorSystem b = behindRelay(relay, "");
    List<ActorRef> watched = actorsOn(b, a, "w", 50);
    TestKit probe = new TestKit(a);
    Association toB = controlLaneUp(a, b, probe);
    Association fromA = provider(b).association(a.address());

    relay.hold(FaultRelay.Direction.TO_TARGET);
    watched.forEach(probe::watch); // 50 watches written into the held link
    await(a, "the watches written", () -> !toB.outbox().hasUnwritten() && toB.outbox().size() == 50);
    relay.cut(); // the link breaks with the watches in it
    relay.heal();

    await(a, "every watch acknowledged", () -> toB.outbox().size() == 0);
    assertEquals(51, fromA.inbound().deliveries(), "each watch delivered once, none skipped");
    stopAndExpectEachTerminatedOnce(b, probe, watched);
  }

  @Test
  void aResentMessageThatHadArrivedIsNotDeliveredTwice() {
    FaultRelay relay = relay();
    ActorSystem a = troupe.system();
    ActorSystem b = behindRelay(relay, "");
    List<ActorRef> watched = actorsOn(b, a, "d", 20);
    TestKit probe = new TestKit(a);
    Association toB = controlLaneUp(a, b, probe);
    Association fromA = provider(b).association(a.address());

    relay.hold(FaultRelay.Direction.FROM_TARGET); // b receives, its acknowledgements are held
    watched.forEach(probe::watch);
    await(b, "the 20 watches delivered on b", () -> fromA.inbound().deliveries() == 21);
    assertEquals(20, toB.outbox().size(), "not acknowledged yet: the acknowledgements are held");
    relay.cut(); // the acknowledgements are lost: a resends all 20
    relay.heal();

    await(a, "every watch acknowledged", () -> toB.outbox().size() == 0);
    assertEquals(21, fromA.inbound().deliveries(), "a resent watch is not delivered again");
    assertTrue(fromA.inbound().duplicates() >= 20, "the resends arrived: " + fromA.inbound().duplicates());
    stopAndExpectEachTerminatedOnce(b, probe, watched);
  }

  @Test
  void aPartitionShorterThanTheFailureDetectorsPauseQuarantinesNothing() {
    FaultRelay relay = relay();
    ActorSystem a =
        troupe.createSystem(
            "troupe.remote.watch-failure-detector.heartbeat-interval = 100ms\n"
                + "troupe.remote.watch-failure-detector.acceptable-heartbeat-pause = 3s\n");
    ActorSystem b = behindRelay(relay, "");
    List<ActorRef> before = actorsOn(b, a, "p", 1);
    List<ActorRef> during = actorsOn(b, a, "q", 1);
    TestKit probe = new TestKit(a);
    TestKit events = new TestKit(a);
    a.eventStream().subscribe(events.getRef(), QuarantinedEvent.class);
    probe.watch(before.get(0));
    Association toB = provider(a).association(b.address());
    await(a, "the first watch acknowledged", () -> toB.outbox().acknowledged() == 1);

    relay.hold(FaultRelay.Direction.BOTH);
    probe.watch(during.get(0)); // sent during the partition
    long from = provider(a).watchedNodes().heartbeatsSent(b.address());
    await(a, "ten heartbeat intervals of partition", () -> provider(a).watchedNodes().heartbeatsSent(b.address()) >= from + 10);
    relay.heal();

    await(a, "the watch sent in the partition acknowledged", () -> toB.outbox().size() == 0 && toB.outbox().acknowledged() == 2);
    probe.expectNoMessage(Duration.ofMillis(300));
    events.expectNoMessage(Duration.ofMillis(10));
    List<ActorRef> both = new ArrayList<>(before);
    both.addAll(during);
    stopAndExpectEachTerminatedOnce(b, probe, both);
  }

  @Test
  void aPartitionLongerThanThePauseTerminatesTheWatchesAndQuarantinesThePeer() {
    FaultRelay relay = relay();
    ActorSystem a =
        troupe.createSystem(
            "troupe.remote.watch-failure-detector.heartbeat-interval = 100ms\n"
                + "troupe.remote.watch-failure-detector.acceptable-heartbeat-pause = 1s\n");
    ActorSystem b = behindRelay(relay, "");
    List<ActorRef> watched = actorsOn(b, a, "l", 1000);
    TestKit probe = new TestKit(a);
    TestKit events = new TestKit(a);
    a.eventStream().subscribe(events.getRef(), QuarantinedEvent.class);
    watched.forEach(probe::watch);
    Association toB = provider(a).association(b.address());
    await(a, "the 1000 watches acknowledged", () -> toB.outbox().acknowledged() == 1000);
    long bUid = provider(b).uid();

    relay.hold(FaultRelay.Direction.BOTH); // b is silent from now on

    Set<ActorRef> heard = new HashSet<>();
    for (Object m : probe.receiveN(1000, WAIT)) {
      Terminated t = (Terminated) m;
      assertTrue(t.addressTerminated(), t.toString());
      assertFalse(t.existenceConfirmed(), t.toString());
      heard.add(t.actor());
    }
    assertEquals(new HashSet<>(watched), heard, "one Terminated per watched actor");
    assertEquals(new QuarantinedEvent(b.address(), bUid), events.expectMsgClass(WAIT, QuarantinedEvent.class));
    assertTrue(toB.isQuarantined(bUid));

    relay.heal(); // b's incarnation stays quarantined: nothing more from it, nothing more to it
    probe.expectNoMessage(Duration.ofMillis(500));
    events.expectNoMessage(Duration.ofMillis(10));
    assertEquals(0, toB.outbox().size());

    TestKit late = new TestKit(a);
    late.watch(watched.get(7)); // a watch of the quarantined incarnation's actor hears at once
    Terminated t = late.expectTerminated(WAIT, watched.get(7));
    assertTrue(t.addressTerminated(), t.toString());
    assertEquals(0, toB.outbox().size(), "nothing waits for a quarantined incarnation");
  }

  @Test
  void anOverflowingSystemMessageBufferQuarantinesThePeer() {
    Watching w = watchingFirstOf("troupe.remote.advanced.system-message-buffer-size = 5\n", "o", 6);

    w.relay().hold(FaultRelay.Direction.BOTH);
    for (int i = 1; i < 6; i++) {
      w.probe().watch(w.watched().get(i)); // the first four fit beside each other, the fifth unacknowledged one...
    }
    w.probe().unwatch(w.watched().get(1)); // ...and this sixth overflow the buffer of 5

    w.expectBQuarantined();
    Set<ActorRef> heard = w.terminated(5); // every watch still in place hears that the node is gone
    assertTrue(heard.contains(w.watched().get(0)), "the acknowledged watch hears too: " + heard);
    assertEquals(0, w.toB().outbox().size(), "the unacknowledged messages are dropped");
  }

  @Test
  void systemMessagesUnacknowledgedForTooLongQuarantineThePeer() {
    Watching w = watchingFirstOf("troupe.remote.advanced.give-up-system-message-after = 1s\n", "g", 2);

    w.relay().hold(FaultRelay.Direction.BOTH);
    w.probe().watch(w.watched().get(1)); // never acknowledged

    w.expectBQuarantined();
    assertEquals(new HashSet<>(w.watched()), w.terminated(2));
  }

  @Test
  void aPeerRestartedOnTheSameAddressEndsTheWatchesOfItsOldIncarnationAndIsReachedAnew() {
    FaultRelay relay = relay();
    FaultRelay toA = relay();
    ActorSystem a = behindRelay(toA, ""); // both directions pass a relay: b1 can vanish without a word
    String name = "restarting";
    ActorSystem b1 = named(name, relay);
    ActorRef old = actorsOn(b1, a, "r", 1).get(0);
    TestKit probe = new TestKit(a);
    probe.watch(old);
    Association toB = provider(a).association(b1.address());
    await(a, "the watch acknowledged", () -> toB.outbox().acknowledged() == 1);
    long oldUid = provider(b1).uid();

    relay.hold(FaultRelay.Direction.BOTH); // b1 vanishes without a word: its death notices and leaving
    toA.hold(FaultRelay.Direction.BOTH); // notice are held...
    TestKit.shutdownActorSystem(b1);
    relay.cut(); // ...and lost
    toA.cut();
    relay.heal();
    toA.heal();
    ActorSystem b2 = named(name, relay);
    assertEquals(b1.address(), b2.address());

    ActorRef fresh = actorsOn(b2, a, "r", 1).get(0); // the lookup meets the new incarnation
    Terminated t = probe.expectTerminated(WAIT, old);
    assertTrue(t.addressTerminated(), t.toString());
    assertTrue(toB.uid() != oldUid, "the association follows the new incarnation");
    long acked = toB.outbox().acknowledged();
    probe.watch(fresh);
    await(a, "the watch of the new incarnation's actor acknowledged", () -> toB.outbox().acknowledged() > acked);
    stopAndExpectEachTerminatedOnce(b2, probe, List.of(fresh));
  }

  /** A system of the given name behind {@code relay}, shut down after the test. */
  private ActorSystem named(String name, FaultRelay relay) {
    ActorSystem s =
        ActorSystem.create(
            name,
            ConfigFactory.parseString(BASE + "troupe.remote.canonical.port = " + relay.port() + "\ntroupe.remote.bind.port = 0\n")
                .withFallback(ConfigFactory.load()));
    named.add(s);
    relay.target(provider(s).boundPort());
    return s;
  }
}
