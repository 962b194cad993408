package dev.troupe.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The steal hold (see {@code AffinityWorker#judgeStealRun}): a worker whose steals buy only short
 * runs of one-message tasks stops robbing busy peers for a while, and busy peers stop waking it.
 * Driven on a pool whose threads never start, with the workers' own methods, so that no timing
 * decides the outcome.
 */
class AffinityPoolStealHoldTest {
  /** A hold no test outlasts. */
  private static final long LONG_HOLD = TimeUnit.SECONDS.toNanos(10);

  private final AffinityPool pool =
      AffinityPool.builder().parallelism(2).threadFactory(Thread::new).buildUnstarted();
  private final AffinityWorker victim = pool.workers[0];
  private final AffinityWorker thief = pool.workers[1];

  AffinityPoolStealHoldTest() {
    for (AffinityWorker w : pool.workers) {
      w.initSightings(); // what run() does on the worker's thread before its loop
    }
  }

  /**
   * As if the thief, whose previous hold (if any) has just ended, stole {@code task} {@code
   * agoNanos} ago and has now run dry.
   */
  private void endStolenRun(Runnable task, long agoNanos, boolean resubmitted) {
    long now = System.nanoTime();
    thief.soStealHoldUntil(now);
    thief.stolenTask = task;
    thief.stolenResubmitted = resubmitted;
    thief.stealRunStart = now - agoNanos;
    thief.judgeStealRun(now);
  }

  /** As if the thief had just started a hold that lasts longer than the test. */
  private void holdForLong() {
    thief.stealHoldNanos = AffinityWorker.MIN_STEAL_HOLD_NANOS;
    thief.soStealHoldUntil(System.nanoTime() + LONG_HOLD);
  }

  private void queueOnVictim(int tasks) {
    for (int i = 0; i < tasks; i++) {
      assertTrue(victim.queue.offer(() -> {}), "queued");
    }
  }

  @Test
  void aShortStolenRunOfAOneMessageTaskStartsAHoldThatDoublesUpToTheMaximum() {
    Runnable oneMessage = () -> {};
    long before = System.nanoTime();
    endStolenRun(oneMessage, 1_000, false);
    assertEquals(AffinityWorker.MIN_STEAL_HOLD_NANOS, thief.stealHoldNanos, "first hold");
    assertTrue(
        thief.loStealHoldUntil() - before >= AffinityWorker.MIN_STEAL_HOLD_NANOS,
        "the hold runs from the judgement on");
    assertTrue(thief.holdsSteals(before), "holding at that time");
    assertFalse(
        thief.holdsSteals(thief.loStealHoldUntil()), "not holding once the hold's time is up");
    assertNull(thief.stolenTask, "the judged steal is forgotten");

    endStolenRun(oneMessage, 1_000, false);
    assertEquals(2 * AffinityWorker.MIN_STEAL_HOLD_NANOS, thief.stealHoldNanos, "doubled");
    for (int i = 0; i < 20; i++) {
      endStolenRun(oneMessage, 1_000, false);
    }
    assertEquals(AffinityWorker.MAX_STEAL_HOLD_NANOS, thief.stealHoldNanos, "capped");
  }

  @Test
  void aStolenTaskThatResubmitsItselfOrARunLongEnoughEndsTheHold() {
    Runnable task = () -> {};
    endStolenRun(task, 1_000, false);
    assertTrue(thief.stealHoldNanos > 0, "held after a short one-message run");
    endStolenRun(task, 1_000, true);
    assertEquals(0, thief.stealHoldNanos, "a stream of work (it resubmitted itself) paid");

    endStolenRun(task, 1_000, false);
    assertTrue(thief.stealHoldNanos > 0, "held again");
    endStolenRun(task, 2 * AffinityWorker.PAYING_STEAL_RUN_NANOS, false);
    assertEquals(0, thief.stealHoldNanos, "a long run paid");
  }

  @Test
  void theStolenTaskResubmittingItselfOnTheThiefIsWhatMarksTheStealAsPaid() {
    Runnable stolen = () -> {};
    Runnable other = () -> {};
    thief.stolenTask = stolen;
    thief.current = other; // a task the stolen one scheduled here resubmits itself: not the mark
    thief.offerOwn(other);
    assertFalse(thief.stolenResubmitted, "another task's resubmission");
    thief.current = stolen;
    thief.offerOwn(stolen);
    assertTrue(thief.stolenResubmitted, "the stolen task resubmitted itself");
  }

  @Test
  void aHoldThatEndedLongAgoIsForgotten() {
    Runnable task = () -> {};
    for (int i = 0; i < 20; i++) {
      endStolenRun(task, 1_000, false);
    }
    assertEquals(AffinityWorker.MAX_STEAL_HOLD_NANOS, thief.stealHoldNanos, "at the maximum");
    long now = System.nanoTime();
    thief.stolenTask = task;
    thief.stealRunStart = now - 1_000;
    thief.soStealHoldUntil(now - 2 * AffinityWorker.MAX_STEAL_HOLD_NANOS);
    thief.judgeStealRun(now);
    assertEquals(AffinityWorker.MIN_STEAL_HOLD_NANOS, thief.stealHoldNanos, "started over");
  }

  @Test
  void aHoldingWorkerDoesNotRobABusyPeerAndStealsAgainWhenTheHoldEnds() {
    queueOnVictim(4);
    holdForLong();
    // 64 scans: the stuck check (one scan in 64) sees the victim once, which cannot call it stuck.
    for (int i = 0; i < 64; i++) {
      assertNull(thief.steal(), "steal " + i + " during the hold, victim not stuck");
    }
    assertEquals(4, victim.queue.size(), "nothing taken");

    thief.soStealHoldUntil(System.nanoTime() - 1);
    assertNotNull(thief.steal(), "the hold is over");
    assertEquals(3, victim.queue.size(), "one taken");
  }

  @Test
  void aHoldingWorkerStillRobsAPeerStuckInALongTask() {
    queueOnVictim(4);
    holdForLong();
    // The victim is RUNNING (its initial state) and has finished no task: first sighting...
    for (int i = 0; i < 64; i++) {
      assertNull(thief.steal(), "not yet known to be stuck");
    }
    // ...then pretend that sighting was long ago: no progress since.
    thief.seenSince[victim.index] = System.nanoTime() - 2 * AffinityWorker.STUCK_NANOS;
    Runnable taken = null;
    for (int i = 0; i < 64 && taken == null; i++) {
      taken = thief.steal();
    }
    assertNotNull(taken, "a stuck peer is robbed during a hold");
    assertEquals(1, thief.loTasksStolen(), "counted as stolen");
  }

  @Test
  void aBusyWorkerDoesNotWakeAHoldingPeerToHelp() {
    thief.announceIdle();
    holdForLong();
    assertFalse(pool.wakeOneIdle(victim.index), "no peer to wake");
    assertSame(AffinityWorker.IDLE, thief.lvState(), "the holding peer was left idle");

    thief.soStealHoldUntil(System.nanoTime() - 1);
    assertTrue(pool.wakeOneIdle(victim.index), "woken once its hold is over");
    assertEquals(AffinityWorker.WOKEN, thief.lvState(), "woken");
    assertEquals(0, pool.idleWorkers.lv(), "idle count");
  }
}
