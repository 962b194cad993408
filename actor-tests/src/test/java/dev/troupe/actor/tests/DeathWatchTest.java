package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ActorSystemExtension.class)
class DeathWatchTest {

  /** Does nothing but exist. */
  static class Idle extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  record WatchIt(ActorRef target) {}

  record WatchWith(ActorRef target, Object message) {}

  record UnwatchIt(ActorRef target) {}

  record Block(CountDownLatch entered, CountDownLatch release) {}

  /** Watches on request; reports everything else (Terminated included) to the probe. */
  static class Watcher extends AbstractActor {
    final ActorRef report;

    Watcher(ActorRef report) {
      this.report = report;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(WatchIt.class, w -> {
            getContext().watch(w.target());
            getSender().tell("watching", getSelf());
          })
          .match(WatchWith.class, w -> {
            getContext().watchWith(w.target(), w.message());
            getSender().tell("watching", getSelf());
          })
          .match(UnwatchIt.class, w -> {
            getContext().unwatch(w.target());
            report.tell("unwatched", getSelf());
          })
          .match(Block.class, b -> {
            b.entered().countDown();
            b.release().await(10, TimeUnit.SECONDS); // blocks on purpose: the test releases it
          })
          .matchAny(m -> report.tell(m, getSender()))
          .build();
    }
  }

  private static ActorRef watcher(ActorSystem system, TestKit kit, ActorRef target) {
    ActorRef w = system.actorOf(Props.create(Watcher.class, kit.getRef()));
    w.tell(new WatchIt(target), kit.getRef());
    kit.expectMsg("watching");
    return w;
  }

  @Test
  void aWatcherReceivesTerminatedExactlyOnce(ActorSystem system, TestKit kit) {
    ActorRef target = system.actorOf(Props.create(Idle.class));
    watcher(system, kit, target);
    target.tell(PoisonPill.getInstance(), ActorRef.noSender());
    Terminated t = kit.expectMsgClass(Terminated.class);
    assertEquals(target, t.actor());
    assertTrue(t.existenceConfirmed());
    assertFalse(t.addressTerminated());
    assertEquals(target, kit.getLastSender(), "Terminated comes from the dead actor");
    kit.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void watchingAnAlreadyStoppedActorDeliversTerminatedWithoutConfirmedExistence(ActorSystem system, TestKit kit) {
    ActorRef target = system.actorOf(Props.create(Idle.class));
    kit.watch(target);
    system.stop(target);
    kit.expectTerminated(target);
    watcher(system, kit, target);
    Terminated t = kit.expectMsgClass(Terminated.class);
    assertEquals(target, t.actor());
    assertFalse(t.existenceConfirmed());
    kit.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void watchingDeadLettersDeliversTerminatedAtOnce(ActorSystem system, TestKit kit) {
    watcher(system, kit, system.deadLetters());
    Terminated t = kit.expectMsgClass(Terminated.class);
    assertFalse(t.existenceConfirmed());
  }

  @Test
  void watchingTwiceStillDeliversOneTerminated(ActorSystem system, TestKit kit) {
    ActorRef target = system.actorOf(Props.create(Idle.class));
    ActorRef w = watcher(system, kit, target);
    w.tell(new WatchIt(target), kit.getRef());
    kit.expectMsg("watching");
    system.stop(target);
    kit.expectMsgClass(Terminated.class);
    kit.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void watchWithDeliversTheCustomMessageInsteadOfTerminated(ActorSystem system, TestKit kit) {
    ActorRef target = system.actorOf(Props.create(Idle.class));
    ActorRef w = system.actorOf(Props.create(Watcher.class, kit.getRef()));
    w.tell(new WatchWith(target, "it died"), kit.getRef());
    kit.expectMsg("watching");
    system.stop(target);
    kit.expectMsg("it died");
    kit.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void unwatchPreventsTerminated(ActorSystem system, TestKit kit) {
    ActorRef target = system.actorOf(Props.create(Idle.class));
    ActorRef w = watcher(system, kit, target);
    w.tell(new UnwatchIt(target), ActorRef.noSender());
    kit.expectMsg("unwatched");
    system.stop(target);
    kit.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void unwatchDropsATerminatedThatIsAlreadyQueued(ActorSystem system, TestKit kit) {
    ActorRef target = system.actorOf(Props.create(Idle.class));
    ActorRef w = watcher(system, kit, target);
    Block block = new Block(new CountDownLatch(1), new CountDownLatch(1));
    w.tell(block, ActorRef.noSender());
    kit.awaitCond(() -> block.entered().getCount() == 0);
    TestProbe observer = new TestProbe(system);
    observer.watch(target);
    system.stop(target);
    observer.expectTerminated(target); // target is gone; w learns it after its current message
    w.tell(new UnwatchIt(target), ActorRef.noSender()); // queued before w's Terminated
    block.release().countDown();
    kit.expectMsg("unwatched");
    kit.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void anUnhandledTerminatedKillsTheWatcherWithADeathPact(ActorSystem system, TestKit kit) {
    ActorRef target = system.actorOf(Props.create(Idle.class));
    ActorRef w = system.actorOf(Props.create(PactWatcher.class, target));
    kit.watch(w);
    system.stop(target);
    kit.expectTerminated(w); // DeathPactException: the default strategy stops it
  }

  /** Watches its target in preStart and handles nothing. */
  static class PactWatcher extends AbstractActor {
    final ActorRef target;

    PactWatcher(ActorRef target) {
      this.target = target;
    }

    @Override
    public void preStart() {
      getContext().watch(target);
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  @Test
  void everyWatchOfManyWatchersIsNotifiedExactlyOnce(ActorSystem system, TestKit kit) {
    ActorRef target = system.actorOf(Props.create(Idle.class));
    int watchers = 50;
    for (int i = 0; i < watchers; i++) {
      watcher(system, kit, target);
    }
    system.stop(target);
    for (Object m : kit.receiveN(watchers, Duration.ofSeconds(5))) {
      assertTrue(m instanceof Terminated t && t.actor().equals(target), "unexpected " + m);
    }
    kit.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void watcherAndWatcheeStoppingConcurrentlyBothTerminateAndNothingIsDeliveredTwice(ActorSystem system) {
    TestProbe observer = new TestProbe(system); // watches both sides of every pair
    TestProbe forwarded = new TestProbe(system); // gets what the watchers saw before they stopped
    int pairs = 200;
    for (int i = 0; i < pairs; i++) {
      ActorRef target = system.actorOf(Props.create(Idle.class), "target-" + i);
      ActorRef w = system.actorOf(Props.create(Watcher.class, forwarded.getRef()), "watcher-" + i);
      w.tell(new WatchIt(target), ActorRef.noSender());
      observer.watch(target);
      observer.watch(w);
      system.stop(target);
      system.stop(w);
    }
    java.util.Set<ActorRef> dead = new java.util.HashSet<>();
    for (Object m : observer.receiveN(2 * pairs, Duration.ofSeconds(10))) {
      assertTrue(dead.add(((Terminated) m).actor()), "Terminated twice for " + m);
    }
    observer.expectNoMessage(Duration.ofMillis(200));
    java.util.Set<ActorRef> seenByWatchers = new java.util.HashSet<>();
    Object m;
    while ((m = forwarded.receiveOne(Duration.ofMillis(200))) != null) {
      if (m instanceof Terminated t) {
        assertTrue(seenByWatchers.add(t.actor()), "a watcher got Terminated twice for " + t.actor());
      }
    }
    assertTrue(seenByWatchers.size() <= pairs);
  }
}
