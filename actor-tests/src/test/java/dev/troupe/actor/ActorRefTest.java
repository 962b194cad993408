package dev.troupe.actor;

import static dev.troupe.actor.TestSupport.await;
import static dev.troupe.actor.TestSupport.awaitCond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.TestSupport.Probe;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** ActorRef identity, toString, tell and forward. */
class ActorRefTest {
  private final TestSupport.Systems systems = new TestSupport.Systems();

  @AfterEach
  void tearDown() {
    systems.close();
  }

  static final class Echo extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      getSender().tell(message, getSelf());
    }
  }

  static final class Forwarder extends UntypedActor {
    private final ActorRef target;

    Forwarder(ActorRef target) {
      this.target = target;
    }

    @Override
    public void onReceive(Object message) {
      target.forward(message, getContext());
    }
  }

  private static ActorRef createWhenNameIsFree(ActorSystem sys, Props props, String name) {
    AtomicReference<ActorRef> ref = new AtomicReference<>();
    awaitCond(() -> {
      try {
        ref.set(sys.actorOf(props, name));
        return true;
      } catch (InvalidActorNameException taken) {
        return false; // the parent has not yet seen the old one terminate
      }
    }, "the name " + name + " to be free again");
    return ref.get();
  }

  @Test
  void aRecreatedActorWithTheSameNameHasAnEqualPathButAnUnequalRef() throws Throwable {
    ActorSystem sys = systems.create("refeq");
    ActorRef first = sys.actorOf(Props.create(Echo.class), "same");
    assertTrue(await(Patterns.gracefulStop(first, Duration.ofSeconds(5))));
    ActorRef second = createWhenNameIsFree(sys, Props.create(Echo.class), "same");
    assertEquals(first.path(), second.path());
    assertNotEquals(first.path().uid(), second.path().uid());
    assertNotEquals(first, second);
    assertNotEquals(0, first.compareTo(second));
    // a message to the old ref does not reach the new actor
    Probe dead = new Probe(sys);
    sys.eventStream().subscribe(dead.ref(), DeadLetter.class);
    first.tell("old", dead.ref());
    assertEquals(first, dead.expectMsgClass(DeadLetter.class).recipient());
  }

  @Test
  void refsToTheSameActorAreEqualWithEqualHashCodes() throws Throwable {
    ActorSystem sys = systems.create("refsame");
    ActorRef a = sys.actorOf(Props.create(Echo.class), "a");
    ActorRef viaSelection = await(sys.actorSelection("/user/a").resolveOne(Duration.ofSeconds(5)));
    ActorRef replied = (ActorRef) await(Patterns.ask(a, a, Duration.ofSeconds(5)));
    assertEquals(a, viaSelection);
    assertEquals(a.hashCode(), viaSelection.hashCode());
    assertEquals(a, replied);
    assertEquals(0, a.compareTo(viaSelection));
  }

  @Test
  void toStringShowsThePathAndUid() {
    ActorSystem sys = systems.create("reftostring");
    ActorRef a = sys.actorOf(Props.create(Echo.class), "shown");
    assertEquals("Actor[troupe://" + sys.name() + "/user/shown#" + a.path().uid() + "]", a.toString());
  }

  @Test
  void tellingNullThrowsNullPointerExceptionAtTheCall() {
    ActorSystem sys = systems.create("refnull");
    ActorRef a = sys.actorOf(Props.create(Echo.class));
    assertThrows(NullPointerException.class, () -> a.tell(null, ActorRef.noSender()));
    assertThrows(NullPointerException.class, () -> sys.deadLetters().tell(null, ActorRef.noSender()));
    assertThrows(NullPointerException.class, () -> sys.actorSelection("/user/x").tell(null, ActorRef.noSender()));
  }

  @Test
  void forwardKeepsTheOriginalSender() throws Throwable {
    ActorSystem sys = systems.create("forward");
    ActorRef echo = sys.actorOf(Props.create(Echo.class), "echo");
    ActorRef fwd = sys.actorOf(Props.create(Forwarder.class, echo), "fwd");
    Probe p = new Probe(sys);
    fwd.tell("ping", p.ref());
    p.expectMsg("ping");
    assertEquals(echo, p.lastSender, "the reply came from the echo, to the original sender");
    assertEquals("pong", await(Patterns.ask(fwd, "pong", Duration.ofSeconds(5))));
  }

  @Test
  void aMessageWithoutSenderHasDeadLettersAsSender() throws Exception {
    ActorSystem sys = systems.create("nosender");
    Probe dead = new Probe(sys);
    sys.eventStream().subscribe(dead.ref(), DeadLetter.class);
    ActorRef echo = sys.actorOf(Props.create(Echo.class));
    echo.tell("reply to nobody", ActorRef.noSender());
    DeadLetter d = dead.expectMsgClass(DeadLetter.class);
    assertEquals("reply to nobody", d.message());
    assertEquals(echo, d.sender());
  }
}
