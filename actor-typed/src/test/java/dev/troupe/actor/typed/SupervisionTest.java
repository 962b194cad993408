package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.troupe.actor.ExpectedFailure;

import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Behaviors.supervise: resume, restart (with limits), stop, backoff, and exceptions of other classes. */
class SupervisionTest {
  private ActorSystem<Void> system;
  private Probe<Object> probe;

  @BeforeEach
  void start() {
    system = Systems.empty("supervision");
    probe = new Probe<>(system);
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  /** Counts setups and messages; "fail" throws IllegalStateException, "error" an IllegalArgumentException. */
  private Behavior<String> worker(AtomicInteger setups) {
    return Behaviors.setup(ctx -> {
      probe.ref().tell("setup " + setups.incrementAndGet());
      return counting(0);
    });
  }

  private Behavior<String> counting(int n) {
    return Behaviors.receive(String.class)
        .onMessageEquals("fail", () -> {
          throw new IllegalStateException("fail at " + n);
        })
        .onMessageEquals("error", () -> {
          throw new IllegalArgumentException("error at " + n);
        })
        .onMessageEquals("count", () -> {
          probe.ref().tell("count " + n);
          return Behaviors.same();
        })
        .onAnyMessage(m -> counting(n + 1))
        .onSignal(PreRestart.class, s -> {
          probe.ref().tell("pre-restart at " + n);
          return Behaviors.same();
        })
        .build();
  }

  private ActorRef<String> spawn(Behavior<String> b) {
    ActorRef<String> ref = Adapter.spawnAnonymous(Adapter.toClassic(system), b);
    probe.watch(ref);
    return ref;
  }

  @Test
  void resumeKeepsTheStateAndDropsTheFailedMessage() {
    ActorRef<String> ref = spawn(Behaviors.supervise(worker(new AtomicInteger())).onFailure(IllegalStateException.class, SupervisorStrategy.resume()));
    probe.expect("setup 1");
    ref.tell("a");
    ref.tell("fail");
    ref.tell("b");
    ref.tell("count");
    probe.expect("count 2");
  }

  @Test
  void restartRunsTheSetupAgainWithFreshStateAfterPreRestart() {
    ActorRef<String> ref = spawn(Behaviors.supervise(worker(new AtomicInteger())).onFailure(IllegalStateException.class, SupervisorStrategy.restart()));
    probe.expect("setup 1");
    ref.tell("a");
    ref.tell("fail");
    ref.tell("count");
    probe.expect("pre-restart at 1");
    probe.expect("setup 2");
    probe.expect("count 0");
  }

  /** Spawns {@code b} as the child of a typed parent that reports the child's failure. */
  private ActorRef<String> underTypedParent(Behavior<String> b) {
    Probe<ActorRef<String>> refs = new Probe<>(system);
    Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<String>setup(ctx -> {
      ActorRef<String> child = ctx.spawn(b, "child");
      ctx.watch(child);
      refs.ref().tell(child);
      return Behaviors.receive(String.class)
          .onSignal(ChildFailed.class, f -> {
            probe.ref().tell("child failed: " + f.getCause().getMessage());
            return Behaviors.same();
          })
          .build();
    }));
    @SuppressWarnings("unchecked")
    ActorRef<String> child = (ActorRef<String>) refs.receive();
    return child;
  }

  @Test
  void anExceptionOfAnotherClassPassesThroughAndStopsTheActor() {
    ActorRef<String> ref = underTypedParent(
        Behaviors.supervise(worker(new AtomicInteger())).onFailure(IllegalStateException.class, SupervisorStrategy.restart()));
    probe.expect("setup 1");
    ref.tell("error");
    probe.expect("child failed: error at 0");
  }

  @Test
  void nestedSupervisorsHandleTheirOwnExceptionTypes() {
    Behavior<String> b =
        Behaviors.supervise(
                Behaviors.supervise(worker(new AtomicInteger()))
                    .onFailure(IllegalStateException.class, SupervisorStrategy.resume()))
            .onFailure(IllegalArgumentException.class, SupervisorStrategy.restart());
    ActorRef<String> ref = spawn(b);
    probe.expect("setup 1");
    ref.tell("a");
    ref.tell("fail");
    ref.tell("count");
    probe.expect("count 1");
    ref.tell("error");
    probe.expect("pre-restart at 1");
    probe.expect("setup 2");
  }

  @Test
  void stopStrategyStopsTheActorAndTheParentSeesChildFailed() {
    Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<String>setup(ctx -> {
      ActorRef<String> child =
          ctx.spawn(Behaviors.supervise(counting(0)).onFailure(IllegalStateException.class, SupervisorStrategy.stop()), "c");
      ctx.watch(child);
      child.tell("fail");
      return Behaviors.receive(String.class)
          .onSignal(ChildFailed.class, f -> {
            probe.ref().tell(f.getCause().getMessage());
            return Behaviors.same();
          })
          .build();
    }));
    probe.expect("fail at 0");
  }

  @Test
  void aRestartLimitStopsTheActorOnceExceeded() {
    Behavior<String> b =
        Behaviors.supervise(worker(new AtomicInteger()))
            .onFailure(IllegalStateException.class, SupervisorStrategy.restart().withLimit(2, Duration.ofMinutes(1)));
    Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<String>setup(ctx -> {
      ActorRef<String> child = ctx.spawn(b, "limited");
      ctx.watch(child);
      for (int i = 0; i < 3; i++) {
        child.tell("fail");
      }
      return Behaviors.receive(String.class)
          .onSignal(ChildFailed.class, f -> {
            probe.ref().tell("child failed: " + f.getCause().getMessage());
            return Behaviors.same();
          })
          .build();
    }));
    probe.expect("setup 1");
    probe.expect("pre-restart at 0");
    probe.expect("setup 2");
    probe.expect("pre-restart at 0");
    probe.expect("setup 3");
    probe.expect("child failed: fail at 0");
    probe.expectNothing(Duration.ofMillis(100));
  }

  @Test
  void aRestartWaitsForTheOldChildrenSoThatSetupMaySpawnThemAgain() {
    AtomicInteger setups = new AtomicInteger();
    Behavior<String> b = Behaviors.supervise(Behaviors.<String>setup(ctx -> {
      ctx.spawn(Behaviors.ignore(), "same-name");
      probe.ref().tell("setup " + setups.incrementAndGet());
      return Behaviors.receiveMessage(m -> {
        if (m.equals("fail")) {
          throw new IllegalStateException("fail");
        }
        probe.ref().tell("got " + m + " with " + ctx.getChildren().size() + " child");
        return Behaviors.same();
      });
    })).onFailure(SupervisorStrategy.restart());
    ActorRef<String> ref = spawn(b);
    probe.expect("setup 1");
    ref.tell("fail");
    ref.tell("after");
    probe.expect("setup 2");
    probe.expect("got after with 1 child");
  }

  @Test
  void backoffRestartsAfterADelayAndKeepsTheMessagesMeanwhile() {
    ActorRef<String> ref = spawn(Behaviors.supervise(worker(new AtomicInteger()))
        .onFailure(IllegalStateException.class, SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(1), 0.0)));
    probe.expect("setup 1");
    long start = System.nanoTime();
    ref.tell("fail");
    ref.tell("a");
    ref.tell("count");
    probe.expect("pre-restart at 0");
    probe.expect("setup 2");
    long waitedMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(waitedMs >= 190, "restarted after " + waitedMs + " ms, before the 200 ms backoff");
    probe.expect("count 1");
  }

  @Test
  void backoffDelaysDoubleUpToTheMaximum() {
    SupervisorStrategy.Backoff b = SupervisorStrategy.restartWithBackoff(Duration.ofMillis(100), Duration.ofMillis(500), 0.2);
    assertTrue(b.delayOf(0).equals(Duration.ofMillis(100)));
    assertTrue(b.delayOf(1).equals(Duration.ofMillis(200)));
    assertTrue(b.delayOf(2).equals(Duration.ofMillis(400)));
    assertTrue(b.delayOf(3).equals(Duration.ofMillis(500)));
    assertTrue(b.delayOf(200).equals(Duration.ofMillis(500)));
  }

  @Test
  void aBackoffWithMaxRestartsStopsAfterThem() {
    ActorRef<String> ref = underTypedParent(Behaviors.supervise(worker(new AtomicInteger()))
        .onFailure(IllegalStateException.class,
            // the count of restarts resets after a quiet run (by default as long as the longest
            // backoff, 20 ms here); a minute, so that a slow test thread cannot make the second
            // failure come after a reset
            SupervisorStrategy.restartWithBackoff(Duration.ofMillis(10), Duration.ofMillis(20), 0.0)
                .withMaxRestarts(1)
                .withResetBackoffAfter(Duration.ofMinutes(1))));
    probe.expect("setup 1");
    ref.tell("fail");
    probe.expect("pre-restart at 0");
    probe.expect("setup 2");
    ref.tell("fail");
    probe.expect("child failed: fail at 0");
  }

  @Test
  void aFailingSetupIsRetriedUnderALimit() {
    AtomicInteger attempts = new AtomicInteger();
    Behavior<String> flaky = Behaviors.setup(ctx -> {
      if (attempts.incrementAndGet() < 3) {
        throw new IllegalStateException("not yet");
      }
      probe.ref().tell("up after " + attempts.get());
      return Behaviors.ignore();
    });
    spawn(Behaviors.supervise(flaky).onFailure(IllegalStateException.class, SupervisorStrategy.restart().withLimit(5, Duration.ZERO)));
    probe.expect("up after 3");
  }

  /** An expected failure: part of the story, logged by the classic supervisors as one line. */
  static final class Expected extends IllegalStateException implements ExpectedFailure {
    private static final long serialVersionUID = 1L;

    Expected(String message) {
      super(message);
    }
  }

  @Test
  void anExpectedFailureIsLoggedAsOneWarningWithoutAStackTraceAndOthersAsErrorsWithIt() {
    Logger logger = (Logger) LoggerFactory.getLogger(Behavior.class);
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    logger.addAppender(log);
    try {
      ActorRef<String> ref = spawn(Behaviors.supervise(Behaviors.<String>receiveMessage(m -> {
        if (m.equals("expected")) {
          throw new Expected("part of the story");
        }
        if (m.equals("unexpected")) {
          throw new IllegalStateException("a bug");
        }
        probe.ref().tell(m);
        return Behaviors.same();
      })).onFailure(IllegalStateException.class, SupervisorStrategy.restart()));
      ref.tell("expected");
      ref.tell("unexpected");
      ref.tell("done");
      probe.expect("done");
    } finally {
      logger.detachAppender(log);
    }
    List<ILoggingEvent> failures = new ArrayList<>();
    synchronized (log) {
      for (ILoggingEvent e : log.list) {
        if (e.getFormattedMessage().startsWith("supervised behaviour failed")) {
          failures.add(e);
        }
      }
    }
    assertEquals(2, failures.size(), failures.toString());
    ILoggingEvent expected = failures.get(0);
    assertEquals(Level.WARN, expected.getLevel(), expected.toString());
    assertNull(expected.getThrowableProxy(), "no stack trace: " + expected);
    assertTrue(expected.getFormattedMessage().contains("part of the story; restarting"), expected.getFormattedMessage());
    ILoggingEvent bug = failures.get(1);
    assertEquals(Level.ERROR, bug.getLevel(), bug.toString());
    assertEquals("a bug", bug.getThrowableProxy().getMessage());
  }
}
