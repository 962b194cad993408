package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.StashOverflowException;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.StashBuffer;
import dev.troupe.actor.typed.javadsl.TimerScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Behaviors.withTimers and Behaviors.withStash. */
class TimersAndStashTest {
  private ActorSystem<Void> system;
  private Probe<Object> probe;

  @BeforeEach
  void start() {
    system = Systems.empty("timers");
    probe = new Probe<>(system);
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  private void busy(Duration d) {
    long end = System.nanoTime() + d.toNanos();
    while (System.nanoTime() < end) {
      Thread.onSpinWait();
    }
  }

  @Test
  void aTimerStartedAgainUnderItsKeyReplacesTheFirstEvenIfItsMessageIsAlreadyQueued() {
    ActorRef<String> ref = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<String>withTimers(timers ->
        Behaviors.receiveMessage(m -> {
          switch (m) {
            case "start" -> {
              timers.startSingleTimer("k", "first", Duration.ofMillis(10));
              busy(Duration.ofMillis(100)); // the first timer fires and its message is queued meanwhile
              timers.startSingleTimer("k", "second", Duration.ofMillis(10));
            }
            default -> probe.ref().tell(m);
          }
          return Behaviors.same();
        })));
    ref.tell("start");
    probe.expect("second");
    probe.expectNothing(Duration.ofMillis(200));
  }

  @Test
  void aCancelledTimerIsNeverReceivedEvenIfQueued() {
    ActorRef<String> ref = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<String>withTimers(timers ->
        Behaviors.receiveMessage(m -> {
          if (m.equals("start")) {
            timers.startTimerWithFixedDelay("tick", "tick", Duration.ofMillis(10));
            busy(Duration.ofMillis(100));
            timers.cancel("tick");
            probe.ref().tell("active " + timers.isTimerActive("tick"));
          } else {
            probe.ref().tell(m);
          }
          return Behaviors.same();
        })));
    ref.tell("start");
    probe.expect("active false");
    probe.expectNothing(Duration.ofMillis(200));
  }

  @Test
  void aFixedRateTimerRepeatsUntilCancelledAndTimersStopWithARestart() {
    ActorRef<String> ref = Adapter.spawnAnonymous(Adapter.toClassic(system),
        Behaviors.supervise(Behaviors.<String>withTimers(timers -> {
          if (!timers.isTimerActive("rate")) {
            probe.ref().tell("setup");
          }
          return tickingWith(timers);
        })).onFailure(SupervisorStrategy.restart()));
    probe.expect("setup");
    ref.tell("start");
    probe.expect("tick");
    probe.expect("tick");
    ref.tell("fail");
    // More ticks may come before the failure is handled (every 20 ms, however slow this thread is),
    // none after the restart's setup.
    Object m = probe.receive();
    while (m.equals("tick")) {
      m = probe.receive();
    }
    assertEquals("setup", m, "after the ticks, the restart's setup");
    probe.expectNothing(Duration.ofMillis(200)); // the restart cancelled the timer
  }

  private Behavior<String> tickingWith(TimerScheduler<String> timers) {
    return Behaviors.receiveMessage(m -> {
      switch (m) {
        case "start" -> timers.startTimerAtFixedRate("rate", "tick", Duration.ofMillis(20));
        case "fail" -> throw new IllegalStateException("restart me");
        default -> probe.ref().tell(m);
      }
      return Behaviors.same();
    });
  }

  @Test
  void stashedMessagesAreUnstashedInOrderToTheNextBehavior() {
    ActorRef<String> ref = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<String>withStash(10, stash ->
        Behaviors.receiveMessage(m -> {
          if (m.equals("open")) {
            probe.ref().tell("size " + stash.size());
            return stash.unstashAll(Behaviors.receiveMessage(x -> {
              probe.ref().tell(x);
              return Behaviors.same();
            }));
          }
          stash.stash(m);
          return Behaviors.same();
        })));
    for (int i = 0; i < 5; i++) {
      ref.tell("m" + i);
    }
    ref.tell("open");
    ref.tell("after");
    probe.expect("size 5");
    List<Object> got = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      got.add(probe.receive());
    }
    assertEquals(List.of("m0", "m1", "m2", "m3", "m4", "after"), got);
  }

  @Test
  void aFullStashRefusesTheNextMessage() {
    ActorRef<String> ref = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<String>withStash(2, stash ->
        Behaviors.receiveMessage(m -> {
          try {
            stash.stash(m);
            probe.ref().tell("stashed " + m + (stash.isFull() ? " (full)" : ""));
          } catch (StashOverflowException e) {
            probe.ref().tell("overflow at " + m + ", capacity " + stash.capacity());
          }
          return Behaviors.same();
        })));
    ref.tell("a");
    ref.tell("b");
    ref.tell("c");
    probe.expect("stashed a");
    probe.expect("stashed b (full)");
    probe.expect("overflow at c, capacity 2");
  }

  @Test
  void unstashingStopsAtAMessageThatStopsTheActor() {
    List<String> seen = new ArrayList<>();
    ActorRef<String> ref = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<String>withStash(10, stash ->
        Behaviors.receiveMessage(m -> m.equals("go") ? unstashUntilStop(stash, seen) : keep(stash, m))));
    probe.watch(ref);
    ref.tell("a");
    ref.tell("stop");
    ref.tell("b");
    ref.tell("go");
    probe.expectTerminated(ref);
    assertEquals(List.of("a", "stop"), seen);
  }

  private static Behavior<String> keep(StashBuffer<String> stash, String m) {
    stash.stash(m);
    return Behaviors.same();
  }

  private static Behavior<String> unstashUntilStop(StashBuffer<String> stash, List<String> seen) {
    return stash.unstashAll(Behaviors.receiveMessage(x -> {
      synchronized (seen) {
        seen.add(x);
      }
      return x.equals("stop") ? Behaviors.stopped() : Behaviors.same();
    }));
  }
}
