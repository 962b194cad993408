package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Subscribing by class, unsubscribing, publishing. */
class EventStreamTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  @Test
  void aSubscriberToAClassReceivesInstancesOfItsSubclassesOnce(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    assertTrue(sys.eventStream().subscribe(p.getRef(), Number.class));
    assertTrue(sys.eventStream().subscribe(p.getRef(), Integer.class));
    assertFalse(sys.eventStream().subscribe(p.getRef(), Integer.class), "already subscribed to exactly Integer");
    sys.eventStream().publish("not a number");
    sys.eventStream().publish(42);
    sys.eventStream().publish(2.5d);
    p.expectMsg(42);
    p.expectMsg(2.5d);
    p.expectNoMessage(Duration.ofMillis(100)); // 42 only once, the string never
  }

  @Test
  void anUnsubscribedActorReceivesNoMoreEvents(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    TestProbe other = new TestProbe(sys);
    sys.eventStream().subscribe(p.getRef(), String.class);
    sys.eventStream().subscribe(other.getRef(), String.class);
    sys.eventStream().publish("one");
    p.expectMsg("one");
    other.expectMsg("one");
    assertTrue(sys.eventStream().unsubscribe(p.getRef(), String.class));
    assertFalse(sys.eventStream().unsubscribe(p.getRef(), String.class));
    sys.eventStream().publish("two");
    other.expectMsg("two");
    p.expectNoMessage(Duration.ofMillis(100));
    sys.eventStream().unsubscribe(other.getRef());
    sys.eventStream().publish("three");
    other.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void publishingWithNoSubscribersIsFine(ActorSystem sys) {
    sys.eventStream().publish(new Object());
    sys.eventStream().publish("nobody listens");
  }

  @Test
  void aTerminatedSubscriberIsDropped(ActorSystem sys, TestKit kit) {
    TestProbe gone = new TestProbe(sys);
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(gone.getRef(), Long.class);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    assertTrue(kit.awaitResult(Patterns.gracefulStop(gone.getRef(), Duration.ofSeconds(5))));
    sys.eventStream().publish(7L);
    dead.expectNoMessage(Duration.ofMillis(100)); // not delivered to the dead subscriber's dead letters
    assertFalse(sys.eventStream().unsubscribe(gone.getRef(), Long.class), "the terminated subscriber is still subscribed");
    gone.expectNoMessage(Duration.ZERO); // nothing reached it
  }
}
