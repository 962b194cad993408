package dev.troupe.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ActorSystemExtension.class)
class TestKitTest {

  @Test
  void expectMsgReturnsTheExpectedMessageAndRecordsItsSender(ActorSystem system, TestKit kit) {
    ActorRef echo = system.actorOf(TestActors.echoActorProps());
    kit.send(echo, "hello");
    assertEquals("hello", kit.expectMsg("hello"));
    assertEquals(echo, kit.getLastSender());
  }

  @Test
  void expectMsgFailsOnAnotherMessageNamingBoth(TestKit kit) {
    kit.getRef().tell("actual", ActorRef.noSender());
    AssertionError e = assertThrows(AssertionError.class, () -> kit.expectMsg("expected"));
    assertTrue(e.getMessage().contains("expected") && e.getMessage().contains("actual"), e.getMessage());
  }

  @Test
  void expectMsgFailsAfterItsTimeoutWhenNothingArrives(TestKit kit) {
    long start = System.nanoTime();
    AssertionError e = assertThrows(AssertionError.class, () -> kit.expectMsg(Duration.ofMillis(100), "x"));
    long tookMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(e.getMessage().contains("timeout"), e.getMessage());
    assertTrue(tookMs >= 90, "gave up after only " + tookMs + " ms");
  }

  @Test
  void expectMsgClassAcceptsSubclassesAndRejectsOthers(TestKit kit) {
    kit.getRef().tell(42, ActorRef.noSender());
    assertEquals(42, kit.expectMsgClass(Number.class).intValue());
    kit.getRef().tell("text", ActorRef.noSender());
    assertThrows(AssertionError.class, () -> kit.expectMsgClass(Integer.class));
  }

  @Test
  void expectMsgAnyOfAcceptsAnyCandidate(TestKit kit) {
    kit.getRef().tell("b", ActorRef.noSender());
    assertEquals("b", kit.expectMsgAnyOf("a", "b"));
    kit.getRef().tell("c", ActorRef.noSender());
    assertThrows(AssertionError.class, () -> kit.expectMsgAnyOf("a", "b"));
  }

  @Test
  void expectNoMessagePassesInSilenceAndFailsOnAMessage(TestKit kit) {
    kit.expectNoMessage(Duration.ofMillis(50));
    kit.getRef().tell("noise", ActorRef.noSender());
    AssertionError e = assertThrows(AssertionError.class, () -> kit.expectNoMessage(Duration.ofMillis(500)));
    assertTrue(e.getMessage().contains("noise"), e.getMessage());
  }

  @Test
  void receiveNReturnsMessagesInArrivalOrderOrFailsWithWhatCame(TestKit kit) {
    for (int i = 0; i < 3; i++) {
      kit.getRef().tell(i, ActorRef.noSender());
    }
    assertEquals(List.of(0, 1, 2), kit.receiveN(3));
    kit.getRef().tell("only one", ActorRef.noSender());
    AssertionError e = assertThrows(AssertionError.class, () -> kit.receiveN(2, Duration.ofMillis(100)));
    assertTrue(e.getMessage().contains("only one"), e.getMessage());
  }

  @Test
  void fishForMessageSkipsUntilTheFilterMatches(TestKit kit) {
    for (int i = 0; i < 5; i++) {
      kit.getRef().tell(i, ActorRef.noSender());
    }
    assertEquals(3, kit.fishForMessage(Duration.ofSeconds(1), "three", m -> m.equals(3)));
    assertEquals(4, kit.expectMsgClass(Integer.class));
  }

  @Test
  void watchAndExpectTerminatedSeeAnActorStop(ActorSystem system, TestKit kit) {
    ActorRef echo = system.actorOf(TestActors.echoActorProps());
    kit.watch(echo);
    echo.tell(PoisonPill.getInstance(), ActorRef.noSender());
    Terminated t = kit.expectTerminated(echo);
    assertSame(echo, t.actor());
  }

  @Test
  void unwatchStopsTerminatedNotifications(ActorSystem system, TestKit kit) {
    ActorRef echo = system.actorOf(TestActors.echoActorProps());
    kit.watch(echo);
    kit.unwatch(echo);
    echo.tell(PoisonPill.getInstance(), ActorRef.noSender());
    kit.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void replyAndForwardUseTheLastSender(ActorSystem system) {
    TestProbe a = new TestProbe(system, "a");
    TestProbe b = new TestProbe(system, "b");
    TestProbe c = new TestProbe(system, "c");
    a.getRef().tell("question", b.getRef());
    a.expectMsg("question");
    a.reply("answer");
    b.expectMsg("answer");
    assertEquals(a.getRef(), b.getLastSender());
    a.forward(c.getRef());
    c.expectMsg("question");
    assertEquals(b.getRef(), c.getLastSender());
  }

  @Test
  void childActorOfCreatesAChildOfTheTestActor(TestKit kit) {
    ActorRef child = kit.childActorOf(TestActors.echoActorProps(), "kid");
    assertEquals(kit.getRef().path(), child.path().parent());
    kit.send(child, "ping");
    kit.expectMsg("ping");
  }

  @Test
  void withinFailsWhenTheBlockTakesLongerThanMax(TestKit kit) {
    assertThrows(AssertionError.class, () -> kit.within(Duration.ofMillis(50), () -> {
      kit.expectNoMessage(Duration.ofMillis(200));
      return null;
    }));
  }

  @Test
  void withinGivesNestedExpectationsTheRemainingTime(TestKit kit) {
    long start = System.nanoTime();
    assertThrows(AssertionError.class, () -> kit.within(Duration.ofMillis(200), () -> kit.expectMsg("never")));
    long tookMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(tookMs < 2_000, "expectMsg inside within(200 ms) waited " + tookMs + " ms");
  }

  @Test
  void awaitCondWaitsForAConditionAndFailsWhenItNeverHolds(ActorSystem system, TestKit kit) {
    AtomicInteger n = new AtomicInteger();
    system.scheduler().scheduleOnce(Duration.ofMillis(30), n::incrementAndGet, system.dispatcher());
    kit.awaitCond(Duration.ofSeconds(3), () -> n.get() == 1);
    AssertionError e = assertThrows(AssertionError.class, () -> kit.awaitCond(Duration.ofMillis(50), () -> false));
    assertTrue(e.getMessage().contains("timeout"), e.getMessage());
  }

  @Test
  void awaitCondWithAMessageNamesWhatItWaitedFor(ActorSystem system, TestKit kit) {
    AtomicInteger n = new AtomicInteger();
    system.scheduler().scheduleOnce(Duration.ofMillis(30), n::incrementAndGet, system.dispatcher());
    kit.awaitCond("the counter to reach one", () -> n.get() == 1);
    AssertionError e = assertThrows(AssertionError.class,
        () -> kit.within(Duration.ofMillis(100), () -> {
          kit.awaitCond("the impossible", () -> false);
          return null;
        }));
    assertTrue(e.getMessage().contains("the impossible"), e.getMessage());
  }

  @Test
  void awaitResultReturnsTheValueOfAStage(TestKit kit) {
    CompletableFuture<String> later = new CompletableFuture<>();
    new Thread(() -> later.complete("done")).start();
    assertEquals("done", kit.awaitResult(later));
    assertEquals(7, kit.awaitResult(Duration.ofSeconds(1), CompletableFuture.completedFuture(7)));
  }

  @Test
  void awaitResultFailsWithTheCauseOfAFailedStage(TestKit kit) {
    IllegalStateException cause = new IllegalStateException("broken");
    AssertionError failed = assertThrows(AssertionError.class,
        () -> kit.awaitResult(CompletableFuture.failedFuture(cause)));
    assertSame(cause, failed.getCause());
    assertTrue(failed.getMessage().contains("broken"), failed.getMessage());
  }

  @Test
  void awaitFailureReturnsWhatAStageFailedWithUnwrapped(TestKit kit) {
    IllegalStateException cause = new IllegalStateException("broken");
    assertSame(cause, kit.awaitFailure(CompletableFuture.failedFuture(cause)));
    CompletableFuture<Object> wrapped = CompletableFuture.failedFuture(new CompletionException(cause));
    assertSame(cause, kit.awaitFailure(Duration.ofSeconds(1), wrapped.thenApply(v -> v)));
  }

  @Test
  void awaitFailureFailsWhenTheStageSucceeds(TestKit kit) {
    AssertionError ok = assertThrows(AssertionError.class,
        () -> kit.awaitFailure(CompletableFuture.completedFuture("fine")));
    assertTrue(ok.getMessage().contains("fine"), ok.getMessage());
  }

  @Test
  void bothAwaitsFailWhenTheStageDoesNotCompleteInTime(TestKit kit) {
    CompletableFuture<Object> never = new CompletableFuture<>();
    List<Runnable> awaits = List.of(
        () -> kit.awaitResult(Duration.ofMillis(50), never), () -> kit.awaitFailure(Duration.ofMillis(50), never));
    for (Runnable await : awaits) {
      AssertionError late = assertThrows(AssertionError.class, await::run);
      assertTrue(late.getMessage().contains("timeout"), late.getMessage());
    }
  }

  @Test
  void liveThreadsFindsTheThreadsOfASystemByTheirNames(ActorSystem system) {
    ActorSystem other = ActorSystem.create("threadnames", ConfigFactory.parseString(
        "my-dispatcher { executor = thread-pool-executor }"));
    try {
      other.actorOf(TestActors.echoActorProps().withDispatcher("my-dispatcher")).tell("wake", ActorRef.noSender());
      TestKit kit = new TestKit(other);
      kit.awaitCond("a thread of my-dispatcher", () -> !TestKit.liveThreads("threadnames-my-dispatcher-").isEmpty());
      assertTrue(TestKit.liveThreads("threadnames-").containsAll(TestKit.liveThreads("threadnames-my-dispatcher-")));
      assertTrue(TestKit.liveThreads(system.name() + "-").stream().noneMatch(n -> n.startsWith("threadnames-")));
    } finally {
      TestKit.shutdownActorSystem(other);
    }
    new TestKit(system).awaitCond("the threads of a shut down system to end",
        () -> TestKit.liveThreads("threadnames-").isEmpty());
  }

  @Test
  void awaitAssertRetriesUntilTheAssertionPassesAndRethrowsTheLastFailure(TestKit kit) {
    AtomicInteger calls = new AtomicInteger();
    int result = kit.awaitAssert(Duration.ofSeconds(2), () -> {
      int c = calls.incrementAndGet();
      assertTrue(c >= 3, "not yet");
      return c;
    });
    assertEquals(3, result);
    AssertionError e = assertThrows(AssertionError.class, () -> kit.awaitAssert(Duration.ofMillis(50), () -> {
      throw new AssertionError("always failing");
    }));
    assertEquals("always failing", e.getMessage());
  }

  @Test
  void awaitAssertAlsoRetriesExceptionsAndRethrowsTheLastOne(TestKit kit) {
    AtomicInteger calls = new AtomicInteger();
    String result = kit.awaitAssert(Duration.ofSeconds(2), () -> {
      if (calls.incrementAndGet() < 3) {
        throw new IllegalStateException("not there yet");
      }
      return "there";
    });
    assertEquals("there", result);
    assertEquals(3, calls.get());
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> kit.awaitAssert(Duration.ofMillis(50), () -> {
      throw new IllegalStateException("never there");
    }));
    assertEquals("never there", e.getMessage());
    AtomicInteger errors = new AtomicInteger();
    assertThrows(StackOverflowError.class, () -> kit.awaitAssert(Duration.ofSeconds(2), () -> {
      errors.incrementAndGet();
      throw new StackOverflowError("fatal");
    }));
    assertEquals(1, errors.get(), "an Error other than AssertionError is not retried");
  }

  @Test
  void timeFactorDilatesTimeouts() {
    ActorSystem slow = ActorSystem.create("slowmachine", ConfigFactory.parseString("troupe.test.timefactor = 3.0"));
    try {
      TestKit kit = new TestKit(slow);
      assertEquals(Duration.ofMillis(300), kit.dilated(Duration.ofMillis(100)));
    } finally {
      TestKit.shutdownActorSystem(slow);
    }
  }

  @Test
  void aNonPositiveTimeFactorIsAConfigurationErrorNamingTheKey() {
    ActorSystem bad = ActorSystem.create("badfactor", ConfigFactory.parseString("troupe.test.timefactor = 0"));
    try {
      RuntimeException e = assertThrows(RuntimeException.class, () -> new TestKit(bad));
      assertTrue(e.getMessage().contains("troupe.test.timefactor"), e.getMessage());
    } finally {
      TestKit.shutdownActorSystem(bad, Duration.ofSeconds(10), true); // the bad factor can't dilate
    }
  }

  @Test
  void shutdownActorSystemTerminatesTheSystem() {
    ActorSystem s = ActorSystem.create("shutdowntest");
    TestKit.shutdownActorSystem(s);
    assertTrue(s.getWhenTerminated().toCompletableFuture().isDone());
  }
}
