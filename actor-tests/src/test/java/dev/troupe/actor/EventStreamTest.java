package dev.troupe.actor;

import static dev.troupe.actor.TestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.TestSupport.Probe;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Subscribing by class, unsubscribing, publishing. */
class EventStreamTest {
  private final TestSupport.Systems systems = new TestSupport.Systems();

  @AfterEach
  void tearDown() {
    systems.close();
  }

  @Test
  void aSubscriberToAClassReceivesInstancesOfItsSubclassesOnce() throws Exception {
    ActorSystem sys = systems.create("es");
    Probe p = new Probe(sys);
    assertTrue(sys.eventStream().subscribe(p.ref(), Number.class));
    assertTrue(sys.eventStream().subscribe(p.ref(), Integer.class));
    assertFalse(sys.eventStream().subscribe(p.ref(), Integer.class), "already subscribed to exactly Integer");
    sys.eventStream().publish("not a number");
    sys.eventStream().publish(42);
    sys.eventStream().publish(2.5d);
    p.expectMsg(42);
    p.expectMsg(2.5d);
    p.expectNoMsg(Duration.ofMillis(100)); // 42 only once, the string never
  }

  @Test
  void anUnsubscribedActorReceivesNoMoreEvents() throws Exception {
    ActorSystem sys = systems.create("esunsub");
    Probe p = new Probe(sys);
    Probe other = new Probe(sys);
    sys.eventStream().subscribe(p.ref(), String.class);
    sys.eventStream().subscribe(other.ref(), String.class);
    sys.eventStream().publish("one");
    p.expectMsg("one");
    other.expectMsg("one");
    assertTrue(sys.eventStream().unsubscribe(p.ref(), String.class));
    assertFalse(sys.eventStream().unsubscribe(p.ref(), String.class));
    sys.eventStream().publish("two");
    other.expectMsg("two");
    p.expectNoMsg(Duration.ofMillis(100));
    sys.eventStream().unsubscribe(other.ref());
    sys.eventStream().publish("three");
    other.expectNoMsg(Duration.ofMillis(100));
  }

  @Test
  void publishingWithNoSubscribersIsFine() {
    ActorSystem sys = systems.create("esnone");
    sys.eventStream().publish(new Object());
    sys.eventStream().publish("nobody listens");
  }

  @Test
  void aTerminatedSubscriberIsDropped() throws Throwable {
    ActorSystem sys = systems.create("esdead");
    Probe gone = new Probe(sys);
    Probe dead = new Probe(sys);
    sys.eventStream().subscribe(gone.ref(), Long.class);
    sys.eventStream().subscribe(dead.ref(), DeadLetter.class);
    assertTrue(await(Patterns.gracefulStop(gone.ref(), Duration.ofSeconds(5))));
    sys.eventStream().publish(7L);
    dead.expectNoMsg(Duration.ofMillis(100)); // not delivered to the dead subscriber's dead letters
    assertFalse(sys.eventStream().unsubscribe(gone.ref(), Long.class), "the terminated subscriber is still subscribed");
    assertEquals(0, gone.queue.size());
  }
}
