package dev.troupe.actor;

import static dev.troupe.actor.TestSupport.await;
import static dev.troupe.actor.TestSupport.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.TestSupport.Probe;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** actorSelection: absolute, relative, wildcard and URI paths; Identify; resolveOne. */
class ActorSelectionTest {
  private final TestSupport.Systems systems = new TestSupport.Systems();

  @AfterEach
  void tearDown() {
    systems.close();
  }

  static final class Echo extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      getSender().tell(getSelf().path().name() + ":" + message, getSelf());
    }
  }

  private Set<Object> receive(Probe p, int n) {
    Set<Object> out = new HashSet<>(p.receiveN(n));
    p.expectNoMsg(Duration.ofMillis(100));
    return out;
  }

  @Test
  void anAbsolutePathSelectsThatActor() throws Exception {
    ActorSystem sys = systems.create("selabs");
    Probe p = new Probe(sys);
    sys.actorOf(Props.create(Echo.class), "a");
    sys.actorSelection("/user/a").tell("hi", p.ref());
    p.expectMsg("a:hi");
    sys.actorSelection(sys.child("a")).tell("again", p.ref());
    p.expectMsg("a:again");
  }

  @Test
  void aFullUriOfThisSystemSelectsTheActor() throws Exception {
    ActorSystem sys = systems.create("seluri");
    Probe p = new Probe(sys);
    sys.actorOf(Props.create(Echo.class), "x");
    sys.actorSelection("troupe://" + sys.name() + "/user/x").tell("hi", p.ref());
    p.expectMsg("x:hi");
  }

  @Test
  void aRelativePathIsResolvedFromTheActor() throws Throwable {
    ActorSystem sys = systems.create("selrel");
    Probe p = new Probe(sys);
    sys.actorOf(Props.create(Echo.class), "sibling");
    ActorRef me = sys.actorOf(Props.create(TestSupport.ContextActor.class), "me");
    TestSupport.inContext(me, ctx -> {
      ctx.actorOf(Props.create(Echo.class), "kid");
      ctx.actorSelection("../sibling").tell("up", p.ref());
      ctx.actorSelection("kid").tell("down", p.ref());
      ctx.actorSelection("./kid").tell("dot", p.ref());
      ctx.actorSelection("/user/sibling").tell("abs", p.ref());
      return "sent";
    });
    assertEquals(Set.of("sibling:up", "kid:down", "kid:dot", "sibling:abs"), receive(p, 4));
  }

  @Test
  void wildcardsSelectEveryMatchingActor() throws Exception {
    ActorSystem sys = systems.create("selwild");
    Probe p = new Probe(sys);
    for (String n : new String[] {"worker-1", "worker-2", "worker-10", "boss"}) {
      sys.actorOf(Props.create(Echo.class), n);
    }
    sys.actorSelection("/user/worker-*").tell("star", p.ref());
    assertEquals(Set.of("worker-1:star", "worker-2:star", "worker-10:star"), receive(p, 3));
    sys.actorSelection("/user/worker-?").tell("one", p.ref());
    assertEquals(Set.of("worker-1:one", "worker-2:one"), receive(p, 2));
    sys.actorSelection("/user/*o*").tell("o", p.ref());
    assertEquals(Set.of("worker-1:o", "worker-2:o", "worker-10:o", "boss:o"), receive(p, 4));
    // no match with a wildcard: nothing, and no dead letter
    Probe dead = new Probe(sys);
    sys.eventStream().subscribe(dead.ref(), DeadLetter.class);
    sys.actorSelection("/user/nobody-*").tell("none", p.ref());
    p.expectNoMsg(Duration.ofMillis(100));
    dead.expectNoMsg(Duration.ofMillis(10));
  }

  @Test
  void identifyAnswersWithTheActorOrEmptyForAMissingPath() throws Exception {
    ActorSystem sys = systems.create("selidentify");
    Probe p = new Probe(sys);
    ActorRef a = sys.actorOf(Props.create(Echo.class), "a");
    sys.actorSelection("/user/a").tell(new Identify("id-1"), p.ref());
    assertEquals(new ActorIdentity("id-1", Optional.of(a)), p.expectMsg());
    sys.actorSelection("/user/missing").tell(new Identify("id-2"), p.ref());
    assertEquals(new ActorIdentity("id-2", Optional.empty()), p.expectMsg());
    a.tell(new Identify("id-3"), p.ref());
    assertEquals(new ActorIdentity("id-3", Optional.of(a)), p.expectMsg());
  }

  @Test
  void resolveOneFindsTheActorOrFailsWithActorNotFound() throws Throwable {
    ActorSystem sys = systems.create("selresolve");
    ActorRef a = sys.actorOf(Props.create(Echo.class), "a");
    assertEquals(a, await(sys.actorSelection("/user/a").resolveOne(Duration.ofSeconds(5))));
    Throwable t = awaitFailure(sys.actorSelection("/user/missing").resolveOne(Duration.ofSeconds(5)), TestSupport.TIMEOUT);
    if (t instanceof java.util.concurrent.CompletionException ce && ce.getCause() != null) {
      t = ce.getCause();
    }
    assertInstanceOf(ActorNotFound.class, t);
    // a wildcard with no match never answers: resolveOne fails after its timeout
    long start = System.nanoTime();
    Throwable w = awaitFailure(sys.actorSelection("/user/missing-*").resolveOne(Duration.ofMillis(100)), Duration.ofSeconds(3));
    if (w instanceof java.util.concurrent.CompletionException ce && ce.getCause() != null) {
      w = ce.getCause();
    }
    assertInstanceOf(ActorNotFound.class, w);
    assertTrue(System.nanoTime() - start >= 100_000_000L);
  }

  @Test
  void aSelectionOfAnotherSystemsAddressDeliversToDeadLetters() throws Exception {
    ActorSystem sys = systems.create("selother");
    Probe dead = new Probe(sys);
    sys.eventStream().subscribe(dead.ref(), DeadLetter.class);
    sys.actorSelection("troupe://elsewhere/user/x").tell("away", ActorRef.noSender());
    assertEquals("away", dead.expectMsgClass(DeadLetter.class).message());
  }
}
