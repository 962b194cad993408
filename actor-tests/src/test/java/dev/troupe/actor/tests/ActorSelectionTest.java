package dev.troupe.actor.tests;

import static dev.troupe.actor.tests.RuntimeFixtures.inContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorNotFound;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Identify;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** actorSelection: absolute, relative, wildcard and URI paths; Identify; resolveOne. */
class ActorSelectionTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  static final class Echo extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      getSender().tell(getSelf().path().name() + ":" + message, getSelf());
    }
  }

  private Set<Object> receive(TestProbe p, int n) {
    Set<Object> out = new HashSet<>(p.receiveN(n));
    p.expectNoMessage(Duration.ofMillis(100));
    return out;
  }

  @Test
  void anAbsolutePathSelectsThatActor(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    sys.actorOf(Props.create(Echo.class), "a");
    sys.actorSelection("/user/a").tell("hi", p.getRef());
    p.expectMsg("a:hi");
    sys.actorSelection(sys.child("a")).tell("again", p.getRef());
    p.expectMsg("a:again");
  }

  @Test
  void aFullUriOfThisSystemSelectsTheActor(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    sys.actorOf(Props.create(Echo.class), "x");
    sys.actorSelection("troupe://" + sys.name() + "/user/x").tell("hi", p.getRef());
    p.expectMsg("x:hi");
  }

  @Test
  void aRelativePathIsResolvedFromTheActor(ActorSystem sys, TestKit kit) {
    TestProbe p = new TestProbe(sys);
    sys.actorOf(Props.create(Echo.class), "sibling");
    ActorRef me = sys.actorOf(Props.create(RuntimeFixtures.ContextActor.class), "me");
    inContext(kit, me, ctx -> {
      ctx.actorOf(Props.create(Echo.class), "kid");
      ctx.actorSelection("../sibling").tell("up", p.getRef());
      ctx.actorSelection("kid").tell("down", p.getRef());
      ctx.actorSelection("./kid").tell("dot", p.getRef());
      ctx.actorSelection("/user/sibling").tell("abs", p.getRef());
      return "sent";
    });
    assertEquals(Set.of("sibling:up", "kid:down", "kid:dot", "sibling:abs"), receive(p, 4));
  }

  @Test
  void wildcardsSelectEveryMatchingActor(ActorSystem sys) {
    TestProbe p = new TestProbe(sys, "p"); // under /user too: a name that none of the selections matches
    for (String n : new String[] {"worker-1", "worker-2", "worker-10", "boss"}) {
      sys.actorOf(Props.create(Echo.class), n);
    }
    sys.actorSelection("/user/worker-*").tell("star", p.getRef());
    assertEquals(Set.of("worker-1:star", "worker-2:star", "worker-10:star"), receive(p, 3));
    sys.actorSelection("/user/worker-?").tell("one", p.getRef());
    assertEquals(Set.of("worker-1:one", "worker-2:one"), receive(p, 2));
    sys.actorSelection("/user/*o*").tell("o", p.getRef());
    assertEquals(Set.of("worker-1:o", "worker-2:o", "worker-10:o", "boss:o"), receive(p, 4));
    // no match with a wildcard: nothing, and no dead letter
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    sys.actorSelection("/user/nobody-*").tell("none", p.getRef());
    p.expectNoMessage(Duration.ofMillis(100));
    dead.expectNoMessage(Duration.ofMillis(10));
  }

  @Test
  void identifyAnswersWithTheActorOrEmptyForAMissingPath(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    ActorRef a = sys.actorOf(Props.create(Echo.class), "a");
    sys.actorSelection("/user/a").tell(new Identify("id-1"), p.getRef());
    p.expectMsg(new ActorIdentity("id-1", Optional.of(a)));
    sys.actorSelection("/user/missing").tell(new Identify("id-2"), p.getRef());
    p.expectMsg(new ActorIdentity("id-2", Optional.empty()));
    a.tell(new Identify("id-3"), p.getRef());
    p.expectMsg(new ActorIdentity("id-3", Optional.of(a)));
  }

  @Test
  void resolveOneFindsTheActorOrFailsWithActorNotFound(ActorSystem sys, TestKit kit) {
    ActorRef a = sys.actorOf(Props.create(Echo.class), "a");
    assertEquals(a, kit.awaitResult(sys.actorSelection("/user/a").resolveOne(Duration.ofSeconds(5))));
    Throwable t = kit.awaitFailure(sys.actorSelection("/user/missing").resolveOne(Duration.ofSeconds(5)));
    assertInstanceOf(ActorNotFound.class, t);
    // a wildcard with no match never answers: resolveOne fails after its timeout
    long start = System.nanoTime();
    Throwable w = kit.awaitFailure(Duration.ofSeconds(3), sys.actorSelection("/user/missing-*").resolveOne(Duration.ofMillis(100)));
    assertInstanceOf(ActorNotFound.class, w);
    assertTrue(System.nanoTime() - start >= 100_000_000L);
  }

  @Test
  void aSelectionOfAnotherSystemsAddressDeliversToDeadLetters(ActorSystem sys) {
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    sys.actorSelection("troupe://elsewhere/user/x").tell("away", ActorRef.noSender());
    assertEquals("away", dead.expectMsgClass(DeadLetter.class).message());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not a path | 'not a path'",
        "/user/a b | 'a b'",
        "/user/<x> | '<x>'",
        "http://x/user/a | unknown protocol 'http'",
        "troupe://sys@host/user/a | host:port",
        "troupe://no such/user/a | 'no such'",
      })
  void aSelectionThatCannotBeAPathIsRejectedNamingTheTextAndWhatIsWrong(String text, String problem, ActorSystem sys) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sys.actorSelection(text));
    assertTrue(e.getMessage().contains("'" + text + "'"), "the message names the text: " + e.getMessage());
    assertTrue(e.getMessage().contains(problem), "the message says what is wrong (" + problem + "): " + e.getMessage());
  }

  @Test
  void anActorRejectsASelectionThatCannotBeAPath(ActorSystem sys, TestKit kit) {
    ActorRef a = sys.actorOf(Props.create(RuntimeFixtures.ContextActor.class), "a");
    Object thrown = inContext(kit, a, ctx -> {
      try {
        return ctx.actorSelection("../sib ling");
      } catch (IllegalArgumentException e) {
        return e;
      }
    });
    assertInstanceOf(IllegalArgumentException.class, thrown, () -> "not rejected: " + thrown);
  }
}
