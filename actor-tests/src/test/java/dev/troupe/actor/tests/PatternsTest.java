package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Props;
import dev.troupe.actor.Status;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.AskTimeoutException;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ask, pipe and gracefulStop. */
class PatternsTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

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

  /** A replier that has stopped, and whose death the kit has seen. */
  private ActorRef stoppedReplier(ActorSystem sys, TestKit kit) {
    ActorRef r = replier(sys, new CopyOnWriteArrayList<>());
    kit.watch(r);
    sys.stop(r);
    kit.expectTerminated(r);
    return r;
  }

  @Test
  void askCompletesWithTheReply(ActorSystem sys, TestKit kit) {
    ActorRef r = replier(sys, new CopyOnWriteArrayList<>());
    assertEquals("hi", kit.awaitResult(Patterns.ask(r, "hi", Duration.ofSeconds(5))));
  }

  @Test
  void aStatusFailureReplyFailsTheAskWithItsCause(ActorSystem sys, TestKit kit) {
    ActorRef r = replier(sys, new CopyOnWriteArrayList<>());
    Throwable t = kit.awaitFailure(Patterns.ask(r, "fail", Duration.ofSeconds(5)));
    assertSame(Replier.FAILURE, t);
  }

  @Test
  void anUnansweredAskFailsWithAskTimeoutExceptionSoonAfterItsTimeout(ActorSystem sys, TestKit kit) {
    ActorRef r = replier(sys, new CopyOnWriteArrayList<>());
    long start = System.nanoTime();
    Throwable t = kit.awaitFailure(Duration.ofSeconds(2), Patterns.ask(r, "ignore", Duration.ofMillis(100)));
    long tookMillis = (System.nanoTime() - start) / 1_000_000;
    assertInstanceOf(AskTimeoutException.class, t);
    assertTrue(t.getMessage().contains(r.path().toString()), "the message names the target: " + t.getMessage());
    assertTrue(tookMillis >= 100, "timed out early, after " + tookMillis + " ms");
  }

  @Test
  void aLateReplyToATimedOutAskGoesToDeadLetters(ActorSystem sys, TestKit kit) {
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    ActorRef[] replyTo = new ActorRef[1];
    ActorRef holder = sys.actorOf(Props.create(RuntimeFixtures.ContextActor.class));
    CompletionStage<Object> ask = Patterns.askWithReplyTo(holder, tmp -> {
      replyTo[0] = tmp;
      return "no InContext: unhandled";
    }, Duration.ofMillis(50));
    kit.awaitFailure(Duration.ofSeconds(2), ask);
    replyTo[0].tell("too late", ActorRef.noSender());
    assertEquals("too late", dead.expectMsgClass(DeadLetter.class).message());
  }

  @Test
  void askRejectsANonPositiveTimeoutAndANullMessageAtTheCall(ActorSystem sys) {
    ActorRef r = replier(sys, new CopyOnWriteArrayList<>());
    assertThrows(IllegalArgumentException.class, () -> Patterns.ask(r, "x", Duration.ZERO));
    assertThrows(NullPointerException.class, () -> Patterns.ask(r, null, Duration.ofSeconds(1)));
  }

  @Test
  void pipeDeliversTheValueOfACompletedStage(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    CompletableFuture<String> f = new CompletableFuture<>();
    Patterns.pipe(f, sys.dispatcher()).to(p.getRef());
    f.complete("value");
    p.expectMsg("value");
  }

  @Test
  void pipeDeliversAFailureAsStatusFailureWithTheCause(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    RuntimeException cause = new RuntimeException("broken");
    Patterns.pipe(CompletableFuture.supplyAsync(() -> {
      throw cause;
    }), sys.dispatcher()).to(p.getRef());
    assertSame(cause, p.expectMsgClass(Status.Failure.class).cause());
  }

  @Test
  void gracefulStopCompletesTrueAfterTheActorsPostStopRan(ActorSystem sys, TestKit kit) {
    List<String> stopped = new CopyOnWriteArrayList<>();
    ActorRef r = replier(sys, stopped);
    assertTrue(kit.awaitResult(Patterns.gracefulStop(r, Duration.ofSeconds(5))));
    assertEquals(List.of("replier"), stopped);
  }

  @Test
  void gracefulStopOfAnAlreadyStoppedActorCompletesTrue(ActorSystem sys, TestKit kit) {
    ActorRef r = replier(sys, new CopyOnWriteArrayList<>());
    assertTrue(kit.awaitResult(Patterns.gracefulStop(r, Duration.ofSeconds(5))));
    assertTrue(kit.awaitResult(Patterns.gracefulStop(r, Duration.ofSeconds(5))));
  }
  @Test
  void askToAnActorThatAlreadyStoppedFailsAtOnceSayingItHadTerminated(ActorSystem sys, TestKit kit) {
    ActorRef r = stoppedReplier(sys, kit);
    Throwable t = kit.awaitFailure(Duration.ofSeconds(1), Patterns.ask(r, "hi", Duration.ofSeconds(20)));
    assertInstanceOf(AskTimeoutException.class, t);
    assertTrue(t.getMessage().contains("already terminated"), "the message says why: " + t.getMessage());
    assertTrue(t.getMessage().contains(r.path().toString()), "the message names the target: " + t.getMessage());
  }

  @Test
  void askToDeadLettersFailsAtOnceSayingItHadTerminated(ActorSystem sys, TestKit kit) {
    Throwable t =
        kit.awaitFailure(Duration.ofSeconds(1), Patterns.ask(sys.deadLetters(), "hi", Duration.ofSeconds(20)));
    assertInstanceOf(AskTimeoutException.class, t);
    assertTrue(t.getMessage().contains("already terminated"), "the message says why: " + t.getMessage());
  }

  @Test
  void gracefulStopOfAStoppedActorCompletesTrueAtOnce(ActorSystem sys, TestKit kit) {
    ActorRef r = stoppedReplier(sys, kit);
    assertTrue(kit.awaitResult(Duration.ofSeconds(1), Patterns.gracefulStop(r, Duration.ofSeconds(20))));
  }
}
