package dev.troupe.actor.internal.scheduler;

import dev.troupe.actor.internal.Await;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.Cancellable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Timing semantics run in manual mode: the test owns the nano clock and drives the wheel with
 * {@code runDueTimers()}, so nothing depends on real time. Thread, idle, close and scale behaviour
 * run with a real timer thread and bounded waits.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
@Timeout(value = 20, unit = SECONDS)
class HashedWheelSchedulerTest {

  private static final Duration TICK = Duration.ofMillis(10);
  private static final Executor INLINE = Runnable::run;

  /** An arbitrary clock origin; nanoTime's origin is arbitrary too. */
  private static final long ORIGIN = 7_777_777_777L;

  private final List<Throwable> errors = new CopyOnWriteArrayList<>();
  private final List<HashedWheelScheduler> toClose = new ArrayList<>();

  @AfterEach
  void closeSchedulers() {
    toClose.forEach(HashedWheelScheduler::close);
  }

  // ==================================================================== deterministic timing

  @Nested
  class With_a_manual_clock {

    private final ManualClock clock = new ManualClock(ORIGIN);

    /** Ticks of 10 ms, 8 per wheel: one revolution is 80 ms, so rounds are exercised too. */
    private final HashedWheelScheduler scheduler =
        HashedWheelScheduler.manual(TICK, 8, clock, errors::add);

    /** Run times of {@link #record}, in ms since the origin (manual mode: one thread). */
    private final List<Long> runsAt = new ArrayList<>();

    private final Runnable record = () -> runsAt.add(clock.millisSinceOrigin());

    private void advanceToMillis(double millis) {
      clock.setNanosSinceOrigin(Math.round(millis * 1_000_000));
      scheduler.runDueTimers();
    }

    /**
     * Moves the clock forward 1 ms at a time up to {@code millis}, running due timers each time.
     */
    private void stepToMillis(long millis) {
      while (clock.millisSinceOrigin() < millis) {
        clock.advanceNanos(1_000_000);
        scheduler.runDueTimers();
      }
    }

    @Test
    void once_fires_after_the_delay_and_not_before() {
      scheduler.scheduleOnce(Duration.ofMillis(25), record, INLINE);

      advanceToMillis(29.999_999);
      assertEquals(List.of(), runsAt, "25 ms rounds up to the 30 ms boundary; ran early");
      advanceToMillis(30);
      assertEquals(List.of(30L), runsAt);
      advanceToMillis(200);
      assertEquals(List.of(30L), runsAt, "a one-shot timer ran twice");
    }

    @Test
    void the_delay_is_measured_from_the_schedule_call() {
      advanceToMillis(33);
      scheduler.scheduleOnce(Duration.ofMillis(10), record, INLINE); // due at 43 -> boundary 50

      advanceToMillis(49.999_999);
      assertEquals(List.of(), runsAt);
      advanceToMillis(50);
      assertEquals(List.of(50L), runsAt);
    }

    @Test
    void a_delay_of_whole_ticks_fires_exactly_on_its_boundary() {
      scheduler.scheduleOnce(Duration.ofMillis(20), record, INLINE);

      advanceToMillis(19.999_999);
      assertEquals(List.of(), runsAt);
      advanceToMillis(20);
      assertEquals(List.of(20L), runsAt);
    }

    @Test
    void zero_and_negative_delays_run_at_the_next_tick() {
      advanceToMillis(5);
      scheduler.scheduleOnce(Duration.ZERO, record, INLINE);
      scheduler.scheduleOnce(Duration.ofSeconds(-1), record, INLINE);
      scheduler.runDueTimers();
      assertEquals(List.of(), runsAt, "ran before the next tick");

      advanceToMillis(10);
      assertEquals(List.of(10L, 10L), runsAt);

      scheduler.scheduleOnce(Duration.ZERO, record, INLINE); // scheduled exactly on a boundary
      scheduler.runDueTimers();
      assertEquals(List.of(10L, 10L), runsAt, "ran in the tick it was scheduled in");
      advanceToMillis(20);
      assertEquals(List.of(10L, 10L, 20L), runsAt);
    }

    @Test
    void a_delay_longer_than_a_wheel_revolution_waits_for_its_round() {
      scheduler.scheduleOnce(Duration.ofMillis(250), record, INLINE); // 3+ revolutions of 80 ms

      stepToMillis(249);
      assertEquals(List.of(), runsAt, "fired in an earlier round of its bucket");
      stepToMillis(300);
      assertEquals(List.of(250L), runsAt);
    }

    @Test
    void a_wrapping_clock_does_not_disturb_the_timers() {
      ManualClock wrapping = new ManualClock(Long.MAX_VALUE - 15_000_000L);
      HashedWheelScheduler s = HashedWheelScheduler.manual(TICK, 8, wrapping, errors::add);
      AtomicInteger runs = new AtomicInteger();
      s.scheduleOnce(Duration.ofMillis(30), runs::incrementAndGet, INLINE);

      wrapping.setNanosSinceOrigin(29_999_999); // nanoTime value has wrapped to negative
      s.runDueTimers();
      assertEquals(0, runs.get());
      wrapping.setNanosSinceOrigin(30_000_000);
      s.runDueTimers();
      assertEquals(1, runs.get());
    }

    @Test
    void fixed_rate_fires_at_the_expected_ticks() {
      scheduler.scheduleAtFixedRate(Duration.ofMillis(20), Duration.ofMillis(30), record, INLINE);

      stepToMillis(120);
      assertEquals(List.of(20L, 50L, 80L, 110L), runsAt);
    }

    @Test
    void fixed_rate_rounds_each_grid_point_up_without_drifting() {
      // grid 15, 40, 65, 90, 115 ms -> boundaries 20, 40, 70, 90, 120
      scheduler.scheduleAtFixedRate(Duration.ofMillis(15), Duration.ofMillis(25), record, INLINE);

      stepToMillis(120);
      assertEquals(List.of(20L, 40L, 70L, 90L, 120L), runsAt);
    }

    @Test
    void fixed_rate_skips_missed_runs_instead_of_catching_up_in_a_burst() {
      scheduler.scheduleAtFixedRate(Duration.ofMillis(30), Duration.ofMillis(30), record, INLINE);

      advanceToMillis(100); // grid points 30, 60, 90 all passed while the timer thread was away
      assertEquals(List.of(100L), runsAt, "caught up on missed runs in a burst");
      stepToMillis(150);
      assertEquals(
          List.of(100L, 120L, 150L), runsAt, "caught up tick by tick, or left the k * 30 ms grid");
    }

    @Test
    void fixed_delay_measures_from_the_end_of_each_run() {
      List<Long> startsAt = new ArrayList<>();
      Runnable takes7ms =
          () -> {
            startsAt.add(clock.millisSinceOrigin());
            clock.advanceNanos(7_000_000); // the run takes 7 ms
          };
      scheduler.scheduleWithFixedDelay(
          Duration.ofMillis(10), Duration.ofMillis(20), takes7ms, INLINE);

      stepToMillis(100);
      // 10 (ends 17, next >= 37), 40 (ends 47, next >= 67), 70 (ends 77, next >= 97), 100
      assertEquals(List.of(10L, 40L, 70L, 100L), startsAt);
    }

    @Test
    void cancel_before_due_prevents_the_run() {
      Cancellable handle = scheduler.scheduleOnce(Duration.ofMillis(50), record, INLINE);
      advanceToMillis(30);

      assertTrue(handle.cancel(), "cancel of a waiting timer");
      assertTrue(handle.isCancelled());
      advanceToMillis(200);
      assertEquals(List.of(), runsAt, "a cancelled timer ran");
      assertEquals(0, scheduler.pendingTimers());
    }

    @Test
    void cancel_returns_true_once_and_false_after() {
      Cancellable handle = scheduler.scheduleOnce(Duration.ofMillis(50), record, INLINE);

      assertTrue(handle.cancel());
      assertFalse(handle.cancel(), "second cancel");
      assertTrue(handle.isCancelled());
    }

    @Test
    void cancel_after_a_one_shot_ran_returns_false() {
      Cancellable handle = scheduler.scheduleOnce(Duration.ofMillis(10), record, INLINE);
      advanceToMillis(10);

      assertFalse(handle.cancel(), "cancel after the run");
      assertFalse(handle.isCancelled());
      assertEquals(List.of(10L), runsAt);
    }

    @Test
    void cancel_after_the_hand_off_but_before_the_start_prevents_the_run() {
      List<Runnable> executorQueue = new ArrayList<>();
      Cancellable handle =
          scheduler.scheduleOnce(Duration.ofMillis(10), record, executorQueue::add);
      advanceToMillis(10);
      assertEquals(1, executorQueue.size(), "due task was not handed to the executor");

      assertTrue(handle.cancel(), "cancel of a handed-off task that has not started");
      executorQueue.forEach(Runnable::run);
      assertEquals(List.of(), runsAt, "the task started although cancel() returned true");
    }

    @Test
    void cancel_of_a_periodic_task_stops_it() {
      Cancellable handle =
          scheduler.scheduleAtFixedRate(
              Duration.ofMillis(10), Duration.ofMillis(10), record, INLINE);
      stepToMillis(30);
      assertEquals(List.of(10L, 20L, 30L), runsAt);

      assertTrue(handle.cancel());
      assertFalse(handle.cancel());
      stepToMillis(100);
      assertEquals(List.of(10L, 20L, 30L), runsAt, "ran after cancel");
      assertEquals(0, scheduler.pendingTimers());
    }

    @Test
    void cancel_from_inside_a_periodic_run_lets_that_run_finish_and_stops_the_next() {
      AtomicInteger runs = new AtomicInteger();
      Cancellable[] self = new Cancellable[1];
      self[0] =
          scheduler.scheduleWithFixedDelay(
              Duration.ofMillis(10),
              Duration.ofMillis(10),
              () -> {
                if (runs.incrementAndGet() == 2) {
                  assertTrue(self[0].cancel(), "cancel during the run");
                }
              },
              INLINE);

      stepToMillis(100);
      assertEquals(2, runs.get());
      assertEquals(0, scheduler.pendingTimers());
    }

    @Test
    void cancelled_timers_are_unlinked_at_the_next_tick() {
      List<Cancellable> handles = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        handles.add(scheduler.scheduleOnce(Duration.ofMillis(1 + i % 1_000), record, INLINE));
      }
      scheduler.runDueTimers();
      assertEquals(10_000, scheduler.pendingTimers());

      handles.forEach(Cancellable::cancel);
      scheduler.runDueTimers(); // no time passes: unlinking does not wait for the due tick
      assertEquals(0, scheduler.pendingTimers(), "cancelled timers are still held by the wheel");
    }

    @Test
    void a_periodic_timer_counts_as_pending_while_it_waits() {
      scheduler.scheduleAtFixedRate(Duration.ofMillis(10), Duration.ofMillis(10), record, INLINE);
      scheduler.scheduleOnce(Duration.ofMillis(15), record, INLINE);
      assertEquals(2, scheduler.pendingTimers());

      stepToMillis(20);
      assertEquals(1, scheduler.pendingTimers(), "the one-shot ran; the periodic one waits");
    }

    @Test
    void a_throwing_task_does_not_stop_other_timers() {
      IllegalStateException boom = new IllegalStateException("boom");
      scheduler.scheduleOnce(
          Duration.ofMillis(10),
          () -> {
            throw boom;
          },
          INLINE);
      scheduler.scheduleOnce(Duration.ofMillis(10), record, INLINE);
      scheduler.scheduleOnce(Duration.ofMillis(20), record, INLINE);

      stepToMillis(30);
      assertEquals(List.of(10L, 20L), runsAt);
      assertEquals(List.of(boom), errors, "the inline executor's failure is reported");
      assertEquals(0, scheduler.handOffFailures(), "the hand-off itself succeeded");
    }

    @Test
    void a_periodic_task_that_throws_is_not_run_again() {
      AtomicInteger runs = new AtomicInteger();
      Cancellable handle =
          scheduler.scheduleAtFixedRate(
              Duration.ofMillis(10),
              Duration.ofMillis(10),
              () -> {
                runs.incrementAndGet();
                throw new IllegalStateException("boom");
              },
              INLINE);

      stepToMillis(50);
      assertEquals(1, runs.get());
      assertFalse(handle.isCancelled());
      assertFalse(handle.cancel(), "it already ended");
      assertEquals(0, scheduler.pendingTimers());
    }

    @Test
    void a_rejecting_executor_does_not_stop_other_timers() {
      Executor rejecting =
          task -> {
            throw new RejectedExecutionException("saturated");
          };
      Cancellable rejected = scheduler.scheduleOnce(Duration.ofMillis(10), record, rejecting);
      Cancellable rejectedPeriodic =
          scheduler.scheduleAtFixedRate(
              Duration.ofMillis(10), Duration.ofMillis(10), record, rejecting);
      scheduler.scheduleOnce(Duration.ofMillis(10), record, INLINE);
      scheduler.scheduleOnce(Duration.ofMillis(20), record, INLINE);

      stepToMillis(50);
      assertEquals(List.of(10L, 20L), runsAt);
      assertEquals(2, scheduler.handOffFailures());
      assertEquals(2, errors.size(), () -> "errors: " + errors);
      errors.forEach(e -> assertInstanceOf(RejectedExecutionException.class, e));
      assertFalse(rejected.isCancelled());
      assertFalse(rejectedPeriodic.cancel(), "a rejected periodic task has ended");
      assertEquals(0, scheduler.pendingTimers());
    }

    @Test
    void scheduling_after_close_throws_and_close_drops_pending_timers() {
      Cancellable handle = scheduler.scheduleOnce(Duration.ofMillis(10), record, INLINE);
      Runnable other = () -> {};
      scheduler.scheduleOnce(Duration.ofMillis(10), other, INLINE);
      handle.cancel();

      List<Runnable> neverRun = scheduler.shutdownNow();

      assertEquals(List.of(other), neverRun);
      assertEquals(List.of(), scheduler.shutdownNow(), "second shutdown");
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () -> scheduler.scheduleOnce(Duration.ZERO, record, INLINE));
      assertEquals("scheduler closed", e.getMessage());
    }
  }

  // ==================================================================== arguments

  @Test
  void arguments_are_checked_and_named() {
    HashedWheelScheduler s = HashedWheelScheduler.manual(TICK, 8, new ManualClock(0), errors::add);
    Duration d = Duration.ofMillis(1);
    Runnable r = () -> {};

    assertNpe("delay", () -> s.scheduleOnce(null, r, INLINE));
    assertNpe("task", () -> s.scheduleOnce(d, (Runnable) null, INLINE));
    assertNpe("executor", () -> s.scheduleOnce(d, r, null));
    assertNpe("initialDelay", () -> s.scheduleAtFixedRate(null, d, r, INLINE));
    assertNpe("interval", () -> s.scheduleAtFixedRate(d, null, r, INLINE));
    assertNpe("task", () -> s.scheduleAtFixedRate(d, d, (Runnable) null, INLINE));
    assertNpe("executor", () -> s.scheduleAtFixedRate(d, d, r, null));
    assertNpe("initialDelay", () -> s.scheduleWithFixedDelay(null, d, r, INLINE));
    assertNpe("delay", () -> s.scheduleWithFixedDelay(d, null, r, INLINE));
    assertNpe("task", () -> s.scheduleWithFixedDelay(d, d, (Runnable) null, INLINE));
    assertNpe("executor", () -> s.scheduleWithFixedDelay(d, d, r, null));

    assertIae("interval", () -> s.scheduleAtFixedRate(d, Duration.ZERO, r, INLINE));
    assertIae("interval", () -> s.scheduleAtFixedRate(d, Duration.ofMillis(-1), r, INLINE));
    assertIae("delay", () -> s.scheduleWithFixedDelay(d, Duration.ZERO, r, INLINE));
    assertIae("delay", () -> s.scheduleWithFixedDelay(d, Duration.ofMillis(-1), r, INLINE));

    ThreadFactory tf = Thread::new;
    assertNpe("threadFactory", () -> new HashedWheelScheduler(null, TICK, 8));
    assertNpe("tickDuration", () -> new HashedWheelScheduler(tf, null, 8));
    assertIae("tickDuration", () -> new HashedWheelScheduler(tf, Duration.ZERO, 8));
    assertIae("ticksPerWheel", () -> new HashedWheelScheduler(tf, TICK, 0));
    assertIae("ticksPerWheel", () -> new HashedWheelScheduler(tf, TICK, 12));
    assertEquals(0, s.pendingTimers(), "a rejected call scheduled something");
  }

  @Test
  void huge_delays_saturate_instead_of_overflowing() {
    ManualClock clock = new ManualClock(ORIGIN);
    HashedWheelScheduler s = HashedWheelScheduler.manual(TICK, 8, clock, errors::add);
    AtomicInteger runs = new AtomicInteger();
    s.scheduleOnce(Duration.ofSeconds(Long.MAX_VALUE), runs::incrementAndGet, INLINE);
    s.scheduleAtFixedRate(
        Duration.ZERO, Duration.ofDays(365_000_000), runs::incrementAndGet, INLINE);

    clock.setNanosSinceOrigin(10_000_000);
    s.runDueTimers();
    assertEquals(1, runs.get(), "only the periodic task's first run is due");
    assertEquals(2, s.pendingTimers());
    assertEquals(List.of(), errors);
  }

  // ==================================================================== real timer thread

  @Test
  void the_timer_thread_hands_due_tasks_to_the_executor_and_never_runs_them_itself()
      throws Exception {
    CapturingThreadFactory threads = new CapturingThreadFactory();
    HashedWheelScheduler s = realScheduler(threads, Duration.ofMillis(1));
    CountDownLatch ran = new CountDownLatch(1);
    Thread[] ranOn = new Thread[1];
    Executor otherThread =
        task ->
            new Thread(
                    () -> {
                      ranOn[0] = Thread.currentThread();
                      task.run();
                    },
                    "test-executor")
                .start();

    s.scheduleOnce(Duration.ofMillis(2), ran::countDown, otherThread);

    assertTrue(ran.await(5, SECONDS), "task did not run within 5 s: " + s);
    assertNotNull(ranOn[0]);
    assertEquals("test-executor", ranOn[0].getName());
  }

  @Test
  void a_task_that_throws_on_the_timer_thread_does_not_kill_it() throws Exception {
    CapturingThreadFactory threads = new CapturingThreadFactory();
    HashedWheelScheduler s = realScheduler(threads, Duration.ofMillis(1));
    CountDownLatch later = new CountDownLatch(1);

    s.scheduleOnce(
        Duration.ZERO,
        () -> {
          throw new OutOfMemoryError("simulated");
        },
        INLINE);
    s.scheduleOnce(Duration.ofMillis(5), later::countDown, INLINE);

    assertTrue(later.await(5, SECONDS), "timer after a failing task did not run: " + s);
    assertTrue(threads.thread().isAlive(), "timer thread died");
    awaitTrue(
        "the failure is reported",
        Duration.ofSeconds(5),
        () -> errors.size() == 1,
        errors::toString);
    assertInstanceOf(OutOfMemoryError.class, errors.get(0));
  }

  @Test
  void close_stops_the_thread_and_later_scheduling_throws() {
    CapturingThreadFactory threads = new CapturingThreadFactory();
    HashedWheelScheduler s = realScheduler(threads, TICK);
    Runnable task = () -> {};
    Cancellable pending = s.scheduleOnce(Duration.ofHours(1), task, INLINE);
    Thread timerThread = threads.thread();
    assertTrue(timerThread.isAlive());

    long start = System.nanoTime();
    List<Runnable> neverRun = s.shutdownNow();
    long tookMillis = (System.nanoTime() - start) / 1_000_000;

    assertFalse(timerThread.isAlive(), "timer thread still alive after close");
    assertTrue(tookMillis < 2_000, "close took " + tookMillis + " ms");
    assertEquals(1, neverRun.size());
    assertSame(task, neverRun.get(0));
    assertTrue(pending.isCancelled(), "a dropped timer's handle reports cancelled");
    s.close(); // idempotent
    for (Runnable call :
        List.<Runnable>of(
            () -> s.scheduleOnce(Duration.ZERO, task, INLINE),
            () -> s.scheduleAtFixedRate(Duration.ZERO, TICK, task, INLINE),
            () -> s.scheduleWithFixedDelay(Duration.ZERO, TICK, task, INLINE))) {
      IllegalStateException e = assertThrows(IllegalStateException.class, call::run);
      assertEquals("scheduler closed", e.getMessage());
    }
    assertEquals(0, s.pendingTimers());
  }

  @Test
  void an_idle_timer_thread_parks_until_a_timer_is_scheduled() {
    CapturingThreadFactory threads = new CapturingThreadFactory();
    HashedWheelScheduler s = realScheduler(threads, TICK);
    Thread timerThread = threads.thread();

    awaitState(timerThread, Thread.State.WAITING, "no timers: park without a timeout");
    Cancellable handle = s.scheduleOnce(Duration.ofHours(1), () -> {}, INLINE);
    awaitState(timerThread, Thread.State.TIMED_WAITING, "a timer: park until the next tick");
    handle.cancel();
    awaitState(timerThread, Thread.State.WAITING, "timer cancelled: park without a timeout again");
    awaitTrue(
        "pending back to 0", Duration.ofSeconds(5), () -> s.pendingTimers() == 0, s::toString);
  }

  @Test
  void with_only_far_timers_the_timer_thread_sleeps_until_the_earliest_instead_of_ticking() {
    CapturingThreadFactory threads = new CapturingThreadFactory();
    HashedWheelScheduler s = realScheduler(threads, TICK);
    Thread timerThread = threads.thread();
    s.scheduleOnce(Duration.ofHours(1), () -> {}, INLINE);
    s.scheduleOnce(Duration.ofHours(2), () -> {}, INLINE);
    awaitQuietSleep(s, timerThread);

    long wakeUps = s.wakeUps();
    // A bounded negative check: a ticking wheel would wake 20 times in these 20 ticks.
    LockSupport.parkNanos(TICK.multipliedBy(20).toNanos());
    assertEquals(wakeUps, s.wakeUps(), "wake-ups of a timer thread with nothing due for an hour");
    assertEquals(Thread.State.TIMED_WAITING, timerThread.getState(), "parked until the first");
    assertEquals(2, s.pendingTimers());
  }

  @Test
  void an_earlier_timer_wakes_a_timer_thread_sleeping_until_a_later_one() throws Exception {
    CapturingThreadFactory threads = new CapturingThreadFactory();
    HashedWheelScheduler s = realScheduler(threads, TICK);
    s.scheduleOnce(Duration.ofHours(1), () -> {}, INLINE);
    awaitQuietSleep(s, threads.thread());

    for (int round = 0; round < 20; round++) {
      CountDownLatch ran = new CountDownLatch(1);
      long start = System.nanoTime();
      s.scheduleOnce(Duration.ofMillis(30), ran::countDown, INLINE);
      assertTrue(ran.await(5, SECONDS), "round " + round + ": a 30 ms timer did not run within 5 s: " + s);
      long tookMillis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(tookMillis >= 30, "round " + round + ": ran early, after " + tookMillis + " ms");
      awaitQuietSleep(s, threads.thread()); // asleep until the hour-long timer again
    }
  }

  @Test
  void a_cancel_wakes_a_quietly_sleeping_timer_thread_so_it_lets_go_of_the_timer() {
    CapturingThreadFactory threads = new CapturingThreadFactory();
    HashedWheelScheduler s = realScheduler(threads, TICK);
    Cancellable far = s.scheduleOnce(Duration.ofHours(1), () -> {}, INLINE);
    awaitQuietSleep(s, threads.thread());
    far.cancel();
    awaitTrue(
        "the cancelled timer is unlinked and the thread parks without a deadline",
        Duration.ofSeconds(5),
        () -> s.pendingTimers() == 0 && threads.thread().getState() == Thread.State.WAITING,
        () -> s + ", state=" + threads.thread().getState());
  }

  /**
   * Waits until the timer thread sleeps after a quiet turn (any new timer or cancel would wake it)
   * and is parked.
   */
  private static void awaitQuietSleep(HashedWheelScheduler s, Thread timerThread) {
    awaitTrue(
        "the timer thread sleeps after a quiet turn",
        Duration.ofSeconds(5),
        () -> s.lvWakeBelowForTest() == HashedWheelScheduler.QUIET
            && timerThread.getState() == Thread.State.TIMED_WAITING,
        () -> s + ", wakeBelow=" + s.lvWakeBelowForTest() + ", state=" + timerThread.getState());
  }

  // ==================================================================== scale

  private static final int MILLION = 1_000_000;
  private static final int PRODUCERS = 4;

  @Test
  void a_million_timers_scheduled_from_several_threads_then_cancelled_leave_nothing_pending()
      throws Exception {
    HashedWheelScheduler s = realScheduler(new CapturingThreadFactory(), TICK);
    Cancellable[] handles = new Cancellable[MILLION];
    Runnable never = () -> fail("a timer an hour away ran");

    runInParallel(
        (from, to) -> {
          for (int i = from; i < to; i++) {
            handles[i] = s.scheduleOnce(Duration.ofMinutes(60 + i % 60), never, INLINE);
          }
        });
    assertEquals(MILLION, s.pendingTimers(), "after scheduling");

    LongAdder cancelled = new LongAdder();
    runInParallel(
        (from, to) -> {
          for (int i = from; i < to; i++) {
            if (handles[i].cancel()) {
              cancelled.increment();
            }
          }
        });
    assertEquals(MILLION, cancelled.sum(), "cancel() returning true");
    awaitTrue(
        "the timer thread has unlinked every cancelled timer",
        Duration.ofSeconds(10),
        () -> s.pendingTimers() == 0,
        () -> "pending=" + s.pendingTimers());
    assertEquals(List.of(), errors);
  }

  @Test
  void a_million_short_timers_all_fire_exactly_once_and_never_early() throws Exception {
    HashedWheelScheduler s = realScheduler(new CapturingThreadFactory(), Duration.ofMillis(1));
    AtomicIntegerArray runs = new AtomicIntegerArray(MILLION);
    long[] notBefore = new long[MILLION];
    LongAdder early = new LongAdder();
    AtomicInteger fired = new AtomicInteger();
    CountDownLatch allFired = new CountDownLatch(1);

    runInParallel(
        (from, to) -> {
          for (int i = from; i < to; i++) {
            int id = i;
            Duration delay = Duration.ofMillis(i % 20);
            notBefore[id] = System.nanoTime() + delay.toNanos();
            s.scheduleOnce(
                delay,
                () -> {
                  if (System.nanoTime() - notBefore[id] < 0) {
                    early.increment();
                  }
                  runs.incrementAndGet(id);
                  if (fired.incrementAndGet() == MILLION) {
                    allFired.countDown();
                  }
                },
                INLINE);
          }
        });

    assertTrue(
        allFired.await(15, SECONDS),
        () -> "only " + fired.get() + " of " + MILLION + " fired within 15 s; " + s);
    for (int i = 0; i < MILLION; i++) {
      if (runs.get(i) != 1) {
        fail("timer " + i + " ran " + runs.get(i) + " times");
      }
    }
    assertEquals(0, early.sum(), "timers that fired before their delay");
    assertEquals(0, s.pendingTimers());
    assertEquals(List.of(), errors);
  }

  // ==================================================================== helpers

  private HashedWheelScheduler realScheduler(ThreadFactory threads, Duration tick) {
    HashedWheelScheduler s =
        new HashedWheelScheduler(threads, tick, 512, System::nanoTime, errors::add);
    toClose.add(s);
    return s;
  }

  /** Splits [0, MILLION) among {@link #PRODUCERS} threads released together; rethrows failures. */
  private static void runInParallel(RangeTask task) throws Exception {
    CyclicBarrier go = new CyclicBarrier(PRODUCERS);
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    List<Thread> workers = new ArrayList<>();
    int share = MILLION / PRODUCERS;
    for (int p = 0; p < PRODUCERS; p++) {
      int from = p * share;
      int to = p == PRODUCERS - 1 ? MILLION : from + share;
      Thread t =
          new Thread(
              () -> {
                try {
                  go.await();
                  task.run(from, to);
                } catch (Throwable e) {
                  failures.add(e);
                }
              },
              "test-producer-" + p);
      t.start();
      workers.add(t);
    }
    for (Thread t : workers) {
      t.join(SECONDS.toMillis(15));
      if (t.isAlive()) {
        fail(t.getName() + " did not finish within 15 s");
      }
    }
    if (!failures.isEmpty()) {
      AssertionError e = new AssertionError("producer failed");
      failures.forEach(e::addSuppressed);
      throw e;
    }
  }

  @FunctionalInterface
  private interface RangeTask {
    void run(int from, int to) throws Exception;
  }

  private static void assertNpe(String name, Runnable call) {
    NullPointerException e = assertThrows(NullPointerException.class, call::run);
    assertEquals(name, e.getMessage());
  }

  private static void assertIae(String name, Runnable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
    assertTrue(
        e.getMessage().startsWith(name + " "),
        () -> "message should name " + name + ": " + e.getMessage());
  }

  private static void awaitState(Thread thread, Thread.State state, String why) {
    awaitTrue(
        thread.getName() + " in state " + state + " (" + why + ")",
        Duration.ofSeconds(5),
        () -> thread.getState() == state,
        () -> "state=" + thread.getState());
  }

  /**
   * Polls {@code condition} until it holds or {@code max} passes; the poll interval is not a
   * synchroniser.
   */
  private static void awaitTrue(
      String what, Duration max, BooleanSupplier condition, Supplier<String> diagnostics) {
    Await.until(what, max, condition, diagnostics);
  }

  /** A nano clock the test sets; read by the scheduler on the test thread (manual mode). */
  static final class ManualClock implements LongSupplier {
    private final long origin;
    private volatile long nanos;

    ManualClock(long origin) {
      this.origin = origin;
      this.nanos = origin;
    }

    @Override
    public long getAsLong() {
      return nanos;
    }

    void setNanosSinceOrigin(long n) {
      nanos = origin + n;
    }

    void advanceNanos(long n) {
      nanos = nanos + n;
    }

    long millisSinceOrigin() {
      return (nanos - origin) / 1_000_000;
    }
  }

  /** Lets a test see the timer thread it made. */
  static final class CapturingThreadFactory implements ThreadFactory {
    private volatile Thread thread;

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, "test-scheduler-1");
      t.setDaemon(true);
      thread = t;
      return t;
    }

    Thread thread() {
      return thread;
    }
  }
}
