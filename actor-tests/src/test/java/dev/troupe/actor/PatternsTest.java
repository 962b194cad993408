package dev.troupe.actor;

import static dev.troupe.actor.TestSupport.await;
import static dev.troupe.actor.TestSupport.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.TestSupport.Probe;
import dev.troupe.pattern.AskTimeoutException;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** ask, pipe and gracefulStop. */
class PatternsTest {
  private final TestSupport.Systems systems = new TestSupport.Systems();

  @AfterEach
  void tearDown() {
    systems.close();
  }

  /** Answers "fail" with a Status.Failure, "ignore" with nothing, anything else with itself. */
  static final class Replier extends UntypedActor {
    static final IllegalStateException FAILURE = new IllegalStateException("refused");
    private final List<String> stopped;

    Replier(List<String> stopped) {
      this.stopped = stopped;
    }

    @Override
    public void onReceive(Object message) {
      if ("fail".equals(message)) {
        getSender().tell(new Status.Failure(FAILURE), getSelf());
      } else if (!"ignore".equals(message)) {
        getSender().tell(message, getSelf());
      }
    }

    @Override
    public void postStop() {
      stopped.add(getSelf().path().name());
    }
  }

  private ActorRef replier(ActorSystem sys, List<String> stopped) {
    return sys.actorOf(Props.create(Replier.class, stopped), "replier");
  }

  @Test
  void askCompletesWithTheReply() throws Throwable {
    ActorSystem sys = systems.create("ask");
    ActorRef r = replier(sys, new CopyOnWriteArrayList<>());
    assertEquals("hi", await(Patterns.ask(r, "hi", Duration.ofSeconds(5))));
  }

  @Test
  void aStatusFailureReplyFailsTheAskWithItsCause() throws Exception {
    ActorSystem sys = systems.create("askfail");
    ActorRef r = replier(sys, new CopyOnWriteArrayList<>());
    Throwable t = awaitFailure(Patterns.ask(r, "fail", Duration.ofSeconds(5)), TestSupport.TIMEOUT);
    assertSame(Replier.FAILURE, t);
  }

  @Test
  void anUnansweredAskFailsWithAskTimeoutExceptionSoonAfterItsTimeout() throws Exception {
    ActorSystem sys = systems.create("asktimeout");
    ActorRef r = replier(sys, new CopyOnWriteArrayList<>());
    long start = System.nanoTime();
    Throwable t = awaitFailure(Patterns.ask(r, "ignore", Duration.ofMillis(100)), Duration.ofSeconds(2));
    long tookMillis = (System.nanoTime() - start) / 1_000_000;
    assertInstanceOf(AskTimeoutException.class, t);
    assertTrue(t.getMessage().contains(r.path().toString()), "the message names the target: " + t.getMessage());
    assertTrue(tookMillis >= 100, "timed out early, after " + tookMillis + " ms");
  }

  @Test
  void aLateReplyToATimedOutAskGoesToDeadLetters() throws Exception {
    ActorSystem sys = systems.create("asklate");
    Probe dead = new Probe(sys);
    sys.eventStream().subscribe(dead.ref(), DeadLetter.class);
    ActorRef[] replyTo = new ActorRef[1];
    ActorRef holder = sys.actorOf(Props.create(TestSupport.ContextActor.class));
    CompletionStage<Object> ask = Patterns.askWithReplyTo(holder, tmp -> {
      replyTo[0] = tmp;
      return "no InContext: unhandled";
    }, Duration.ofMillis(50));
    awaitFailure(ask, Duration.ofSeconds(2));
    replyTo[0].tell("too late", ActorRef.noSender());
    assertEquals("too late", dead.expectMsgClass(DeadLetter.class).message());
  }

  @Test
  void askRejectsANonPositiveTimeoutAndANullMessageAtTheCall() {
    ActorSystem sys = systems.create("askargs");
    ActorRef r = replier(sys, new CopyOnWriteArrayList<>());
    assertThrows(IllegalArgumentException.class, () -> Patterns.ask(r, "x", Duration.ZERO));
    assertThrows(NullPointerException.class, () -> Patterns.ask(r, null, Duration.ofSeconds(1)));
  }

  @Test
  void pipeDeliversTheValueOfACompletedStage() throws Exception {
    ActorSystem sys = systems.create("pipe");
    Probe p = new Probe(sys);
    CompletableFuture<String> f = new CompletableFuture<>();
    Patterns.pipe(f, sys.dispatcher()).to(p.ref());
    f.complete("value");
    p.expectMsg("value");
  }

  @Test
  void pipeDeliversAFailureAsStatusFailureWithTheCause() throws Exception {
    ActorSystem sys = systems.create("pipefail");
    Probe p = new Probe(sys);
    RuntimeException cause = new RuntimeException("broken");
    Patterns.pipe(CompletableFuture.supplyAsync(() -> {
      throw cause;
    }), sys.dispatcher()).to(p.ref());
    assertSame(cause, p.expectMsgClass(Status.Failure.class).cause());
  }

  @Test
  void gracefulStopCompletesTrueAfterTheActorsPostStopRan() throws Throwable {
    ActorSystem sys = systems.create("gstop");
    List<String> stopped = new CopyOnWriteArrayList<>();
    ActorRef r = replier(sys, stopped);
    assertTrue(await(Patterns.gracefulStop(r, Duration.ofSeconds(5))));
    assertEquals(List.of("replier"), stopped);
  }

  @Test
  void gracefulStopOfAnAlreadyStoppedActorCompletesTrue() throws Throwable {
    ActorSystem sys = systems.create("gstop2");
    ActorRef r = replier(sys, new CopyOnWriteArrayList<>());
    assertTrue(await(Patterns.gracefulStop(r, Duration.ofSeconds(5))));
    assertTrue(await(Patterns.gracefulStop(r, Duration.ofSeconds(5))));
  }
}
