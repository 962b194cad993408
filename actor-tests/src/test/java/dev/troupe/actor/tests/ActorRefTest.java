package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.Props;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ActorRef identity, toString, tell and forward. */
class ActorRefTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  private static ActorRef createWhenNameIsFree(TestKit kit, ActorSystem sys, Props props, String name) {
    AtomicReference<ActorRef> ref = new AtomicReference<>();
    kit.awaitCond("the name " + name + " to be free again", () -> {
      try {
        ref.set(sys.actorOf(props, name));
        return true;
      } catch (InvalidActorNameException taken) {
        return false; // the parent has not yet seen the old one terminate
      }
    });
    return ref.get();
  }

  @Test
  void aRecreatedActorWithTheSameNameHasAnEqualPathButAnUnequalRef(ActorSystem sys, TestKit kit) {
    ActorRef first = sys.actorOf(TestActors.echoActorProps(), "same");
    assertTrue(kit.awaitResult(Patterns.gracefulStop(first, Duration.ofSeconds(5))));
    ActorRef second = createWhenNameIsFree(kit, sys, TestActors.echoActorProps(), "same");
    assertEquals(first.path(), second.path());
    assertNotEquals(first.path().uid(), second.path().uid());
    assertNotEquals(first, second);
    assertNotEquals(0, first.compareTo(second));
    // a message to the old ref does not reach the new actor
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    first.tell("old", dead.getRef());
    assertEquals(first, dead.expectMsgClass(DeadLetter.class).recipient());
  }

  @Test
  void refsToTheSameActorAreEqualWithEqualHashCodes(ActorSystem sys, TestKit kit) {
    ActorRef a = sys.actorOf(TestActors.echoActorProps(), "a");
    ActorRef viaSelection = kit.awaitResult(sys.actorSelection("/user/a").resolveOne(Duration.ofSeconds(5)));
    ActorRef replied = (ActorRef) kit.awaitResult(Patterns.ask(a, a, Duration.ofSeconds(5)));
    assertEquals(a, viaSelection);
    assertEquals(a.hashCode(), viaSelection.hashCode());
    assertEquals(a, replied);
    assertEquals(0, a.compareTo(viaSelection));
  }

  @Test
  void toStringShowsThePathAndUid(ActorSystem sys) {
    ActorRef a = sys.actorOf(TestActors.echoActorProps(), "shown");
    assertEquals("Actor[troupe://" + sys.name() + "/user/shown#" + a.path().uid() + "]", a.toString());
  }

  @Test
  void tellingNullThrowsNullPointerExceptionAtTheCall(ActorSystem sys) {
    ActorRef a = sys.actorOf(TestActors.echoActorProps());
    assertThrows(NullPointerException.class, () -> a.tell(null, ActorRef.noSender()));
    assertThrows(NullPointerException.class, () -> sys.deadLetters().tell(null, ActorRef.noSender()));
    assertThrows(NullPointerException.class, () -> sys.actorSelection("/user/x").tell(null, ActorRef.noSender()));
  }

  @Test
  void forwardKeepsTheOriginalSender(ActorSystem sys, TestKit kit) {
    ActorRef echo = sys.actorOf(TestActors.echoActorProps(), "echo");
    ActorRef fwd = sys.actorOf(TestActors.forwardActorProps(echo), "fwd");
    TestProbe p = new TestProbe(sys);
    fwd.tell("ping", p.getRef());
    p.expectMsg("ping");
    assertEquals(echo, p.getLastSender(), "the reply came from the echo, to the original sender");
    assertEquals("pong", kit.awaitResult(Patterns.ask(fwd, "pong", Duration.ofSeconds(5))));
  }

  @Test
  void aMessageWithoutSenderHasDeadLettersAsSender(ActorSystem sys) {
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    ActorRef echo = sys.actorOf(TestActors.echoActorProps());
    echo.tell("reply to nobody", ActorRef.noSender());
    DeadLetter d = dead.expectMsgClass(DeadLetter.class);
    assertEquals("reply to nobody", d.message());
    assertEquals(echo, d.sender());
  }
}
