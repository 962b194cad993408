package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Undeliverable messages become DeadLetter events. */
class DeadLettersTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  static final class Silent extends UntypedActor {
    @Override
    public void onReceive(Object message) {}
  }

  @Test
  void aMessageToAStoppedActorIsADeadLetterWithSenderAndRecipient(ActorSystem sys, TestKit kit) {
    TestProbe dead = new TestProbe(sys);
    TestProbe sender = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    ActorRef a = sys.actorOf(Props.create(Silent.class));
    assertTrue(kit.awaitResult(Patterns.gracefulStop(a, Duration.ofSeconds(5))));
    a.tell("late", sender.getRef());
    DeadLetter d = dead.expectMsgClass(DeadLetter.class);
    assertEquals(new DeadLetter("late", sender.getRef(), a), d);
  }

  @Test
  void aMessageToAnUnknownSelectionPathIsADeadLetter(ActorSystem sys) {
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    sys.actorSelection("/user/nobody/here").tell("lost", ActorRef.noSender());
    assertEquals("lost", dead.expectMsgClass(DeadLetter.class).message());
    sys.actorSelection("troupe://" + sys.name() + "/user/nobody").tell("lost2", ActorRef.noSender());
    assertEquals("lost2", dead.expectMsgClass(DeadLetter.class).message());
  }

  @Test
  void aMessageToTheDeadLettersRefIsPublishedAsADeadLetter(ActorSystem sys) {
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    sys.deadLetters().tell("direct", ActorRef.noSender());
    DeadLetter d = dead.expectMsgClass(DeadLetter.class);
    assertEquals("direct", d.message());
    assertEquals(sys.deadLetters(), d.recipient());
  }

  @Test
  void manyDeadLettersAreAllPublishedWhileTheirLoggingIsRateLimited() {
    ActorSystem sys = troupe.createSystem(
        "troupe.log-dead-letters = 3\ntroupe.log-dead-letters-suspend-duration = 10ms");
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
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
        () -> troupe.createSystem("troupe.log-dead-letters = sometimes"));
    assertTrue(e.getMessage().contains("troupe.log-dead-letters"), e.getMessage());
  }
}
