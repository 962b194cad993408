package dev.troupe.actor.internal.scheduler;

import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The scheduler's sleep handshake: the timer thread, with no timer linked, is about to park with
 * no deadline: it publishes that any new timer must wake it (a volatile store of {@code wakeBelow})
 * and re-checks its queues; a producer schedules a timer (offers it to the queue, then reads
 * {@code wakeBelow} and, finding it set, CASes it to AWAKE and would unpark the thread). A scheduler
 * in manual mode has no thread: the actors run both halves with its own methods.
 *
 * <p>Result: (the timer thread parks, the producer claimed the wake-up).
 *
 * <p>Checked against a mutant (a private, never installed build) whose timer thread re-checks its
 * queues before it publishes {@code wakeBelow}: quick mode reports "1, 0".
 */
@JCStressTest
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "offered before the store: the re-check saw it, no wake-up needed")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "offered after the re-check: the producer wakes the thread")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE_INTERESTING, desc = "both: a harmless extra wake-up")
@Outcome(id = "1, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: the timer is queued, the thread parks with no deadline, unwoken")
@State
public class TimerSleepHandshakeTest {
  private final HashedWheelScheduler scheduler =
      HashedWheelScheduler.manual(Duration.ofMillis(10), 8, System::nanoTime, e -> {});

  @Actor
  public void producer() {
    scheduler.scheduleOnce(Duration.ofHours(1), () -> {}, Runnable::run);
  }

  @Actor
  public void timerThread(II_Result r) {
    r.r1 = scheduler.prepareSleep(false) == HashedWheelScheduler.STAY_AWAKE ? 0 : 1;
  }

  @Arbiter
  public void arbiter(II_Result r) {
    r.r2 = scheduler.lvWakeBelowForTest() == HashedWheelScheduler.AWAKE ? 1 : 0;
  }
}
