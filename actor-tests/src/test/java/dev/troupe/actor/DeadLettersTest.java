package dev.troupe.actor;

import static dev.troupe.actor.TestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.TestSupport.Probe;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Undeliverable messages become DeadLetter events. */
class DeadLettersTest {
  private final TestSupport.Systems systems = new TestSupport.Systems();

  @AfterEach
  void tearDown() {
    systems.close();
  }

  static final class Silent extends UntypedActor {
    @Override
    public void onReceive(Object message) {}
  }

  @Test
  void aMessageToAStoppedActorIsADeadLetterWithSenderAndRecipient() throws Throwable {
    ActorSystem sys = systems.create("dlstopped");
    Probe dead = new Probe(sys);
    Probe sender = new Probe(sys);
    sys.eventStream().subscribe(dead.ref(), DeadLetter.class);
    ActorRef a = sys.actorOf(Props.create(Silent.class));
    assertTrue(await(Patterns.gracefulStop(a, Duration.ofSeconds(5))));
    a.tell("late", sender.ref());
    DeadLetter d = dead.expectMsgClass(DeadLetter.class);
    assertEquals(new DeadLetter("late", sender.ref(), a), d);
  }

  @Test
  void aMessageToAnUnknownSelectionPathIsADeadLetter() throws Exception {
    ActorSystem sys = systems.create("dlpath");
    Probe dead = new Probe(sys);
    sys.eventStream().subscribe(dead.ref(), DeadLetter.class);
    sys.actorSelection("/user/nobody/here").tell("lost", ActorRef.noSender());
    assertEquals("lost", dead.expectMsgClass(DeadLetter.class).message());
    sys.actorSelection("troupe://" + sys.name() + "/user/nobody").tell("lost2", ActorRef.noSender());
    assertEquals("lost2", dead.expectMsgClass(DeadLetter.class).message());
  }

  @Test
  void aMessageToTheDeadLettersRefIsPublishedAsADeadLetter() throws Exception {
    ActorSystem sys = systems.create("dlref");
    Probe dead = new Probe(sys);
    sys.eventStream().subscribe(dead.ref(), DeadLetter.class);
    sys.deadLetters().tell("direct", ActorRef.noSender());
    DeadLetter d = dead.expectMsgClass(DeadLetter.class);
    assertEquals("direct", d.message());
    assertEquals(sys.deadLetters(), d.recipient());
  }

  @Test
  void manyDeadLettersAreAllPublishedWhileTheirLoggingIsRateLimited() throws Exception {
    ActorSystem sys = systems.create("dlmany",
        "troupe.log-dead-letters = 3\ntroupe.log-dead-letters-suspend-duration = 10ms");
    Probe dead = new Probe(sys);
    sys.eventStream().subscribe(dead.ref(), DeadLetter.class);
    for (int i = 0; i < 200; i++) {
      sys.deadLetters().tell(i, ActorRef.noSender()); // never throws, whatever the log does
    }
    for (int i = 0; i < 200; i++) {
      assertEquals(i, dead.expectMsgClass(DeadLetter.class).message());
    }
  }

  @Test
  void anInvalidDeadLetterLogSettingIsAConfigurationExceptionNamingTheKey() {
    ConfigurationException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigurationException.class,
        () -> systems.create("dlbad", "troupe.log-dead-letters = sometimes"));
    assertTrue(e.getMessage().contains("troupe.log-dead-letters"), e.getMessage());
  }
}
