package dev.troupe.actor.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActorWithTimers;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ExpectedFailure;
import dev.troupe.actor.Props;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A timer actor's scheduled tasks are cancelled in the scheduler itself when it restarts or stops. */
class TimerCleanupTest {
  private static final int TIMERS = 100;
  private static final Duration LONG = Duration.ofHours(1);

  private final ActorSystem system = ActorSystem.create("timercleanup");

  @AfterEach
  void terminate() throws Exception {
    system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  static final class Boom extends RuntimeException implements ExpectedFailure {
    Boom() {
      super("failing on purpose");
    }
  }

  /** Starts {@link #TIMERS} long timers of all kinds on "start"; fails on "fail". */
  static final class ManyTimers extends AbstractActorWithTimers {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("start", m -> {
            for (int i = 0; i < TIMERS; i++) {
              switch (i % 3) {
                case 0 -> getTimers().startSingleTimer(i, "x", LONG);
                case 1 -> getTimers().startTimerWithFixedDelay(i, "x", LONG);
                default -> getTimers().startTimerAtFixedRate(i, "x", LONG);
              }
            }
            getSender().tell("started", getSelf());
          })
          .matchEquals("fail", m -> {
            throw new Boom();
          })
          .matchEquals("active", m -> getSender().tell(getTimers().isTimerActive(0), getSelf()))
          .build();
    }
  }

  private int pending() {
    return ((SystemScheduler) system.scheduler()).pendingTimers();
  }

  private void awaitPending(String what, IntPredicate ok) {
    Await.until(what, Duration.ofSeconds(10), () -> ok.test(pending()),
        () -> pending() + " timers still pending");
  }

  private Object ask(ActorRef a, Object m) throws Exception {
    return Patterns.ask(a, m, Duration.ofSeconds(10)).toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** A timer actor whose {@link #TIMERS} timers are scheduled, and the pending count before them. */
  private record Started(ActorRef actor, int before) {}

  private Started startTimers() throws Exception {
    int before = pending();
    ActorRef a = system.actorOf(Props.create(ManyTimers.class));
    assertEquals("started", ask(a, "start"));
    assertTrue(pending() >= before + TIMERS, "the timers were not scheduled: " + pending());
    return new Started(a, before);
  }

  @Test
  void stoppingATimerActorCancelsItsScheduledTasks() throws Exception {
    Started s = startTimers();
    system.stop(s.actor());
    awaitPending("after stop", p -> p < s.before() + TIMERS / 2);
  }

  @Test
  void restartingATimerActorCancelsItsScheduledTasks() throws Exception {
    Started s = startTimers();
    ActorRef a = s.actor();
    a.tell("fail", ActorRef.noSender());
    awaitPending("after restart", p -> p < s.before() + TIMERS / 2);
    assertEquals(false, ask(a, "active"), "a timer survived the restart");
  }
}
