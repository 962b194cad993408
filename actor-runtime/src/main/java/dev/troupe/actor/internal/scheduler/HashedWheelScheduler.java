// One file on purpose (about half of it javadoc; see "Why one file" below): the timer thread's loop, its sleep
// until the next deadline, and the producers' "wake me if due earlier" handshake are one protocol
// whose ordering arguments refer to each other; the wheel's own bookkeeping is in TimingWheel.
package dev.troupe.actor.internal.scheduler;

import dev.troupe.actor.Cancellable;
import dev.troupe.actor.Scheduler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The actor system's {@link Scheduler}: a hashed timing wheel driven by one timer thread.
 *
 * <p><b>Time.</b> Time is cut into ticks of {@code tickDuration}, counted from construction; tick
 * boundary {@code b} lies at {@code start + b * tickDuration}. A timer whose deadline is {@code d}
 * (the schedule call's clock reading plus the delay) is due at the first boundary at or after
 * {@code d}, and is handed off once the clock has reached that boundary: it never fires early, and
 * fires late by up to one tick plus the timer thread's wake-up latency. A zero or negative delay
 * counts as one nanosecond, so it runs at the next boundary.
 *
 * <p><b>Scale.</b> Scheduling and cancelling are O(1) and lock-free: a new timer goes to the timer
 * thread through an MPSC queue; {@code cancel()} is a CAS, after which the timer thread unlinks the
 * timer from its bucket at its next tick (so a million scheduled-then-cancelled timers leave
 * nothing behind). Each tick visits one bucket, i.e. about {@code pending / ticksPerWheel} timers.
 *
 * <p><b>Hand-off.</b> A due task is passed to its executor with {@code executor.execute(..)}; the
 * timer thread runs no task itself (unless that executor runs tasks inline). If the executor throws
 * (typically {@link RejectedExecutionException}), the error goes to the error handler, the task is
 * dropped, and {@link #handOffFailures()} counts it; the timer thread carries on. A task cancelled
 * after its hand-off but before it starts does not run.
 *
 * <p><b>Periodic tasks.</b> The next run is armed when a run has completed, so runs of one task
 * never overlap. Fixed rate aims at {@code initialDelay + k * interval}; grid points already past
 * when a run completes are skipped (no burst catch-up). Fixed delay aims at the end of the run plus
 * {@code delay}. A periodic task that throws, or whose hand-off is rejected, is not run again (as
 * with {@link java.util.concurrent.ScheduledThreadPoolExecutor}).
 *
 * <p><b>Idle.</b> The timer thread never ticks for nothing. With no timers it parks until a
 * {@code schedule} call unparks it. With timers, while timers are being scheduled or cancelled (it
 * placed or unlinked one on its last turn) it parks until the next tick boundary, as a wheel does;
 * after a turn with nothing to place or unlink it parks until the boundary of the earliest timer,
 * however far, and the next {@code schedule} or {@code cancel} call unparks it. Either way a
 * timer due before the boundary it sleeps until unparks it. See {@link #sleep} for the handshake.
 *
 * <p><b>Close.</b> {@link #close()} / {@link #shutdownNow()} stop the timer thread and wait for it
 * (bounded); timers not yet handed off are dropped (their handles report cancelled) and returned by
 * {@code shutdownNow()}. Afterwards every {@code schedule} call throws {@link
 * IllegalStateException}.
 *
 * <p>Thread roles and the memory-ordering vocabulary ({@code lv/lp/sv/so/cas}) are described in the
 * package documentation.
 *
 * <p>Why one file (over 700 lines): the wheel, its timer thread and the timeout objects share
 * one lock-free hand-off (producers enqueue, the one timer thread owns the buckets), whose
 * ordering argument is written once here; the public scheduling API is a thin layer over it.
 */
public final class HashedWheelScheduler implements Scheduler, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HashedWheelScheduler.class);

  /**
   * At most this many queue entries are moved per queue per loop turn, so ticks are not starved.
   */
  static final int DRAIN_LIMIT = 1 << 16;

  /** Cap on deadlines (nanos since start): far beyond any real delay, far from overflow. */
  private static final long MAX_DEADLINE = Long.MAX_VALUE / 4;

  private static final int OPEN = 0;
  private static final int CLOSED = 1;

  /** {@link #wakeBelow} while the timer thread is awake: no producer needs to unpark it. */
  static final long AWAKE = Long.MIN_VALUE;

  /**
   * {@link #wakeBelow} while the timer thread sleeps after a quiet turn (with no deadline, or until
   * the earliest timer): every new timer and every cancel unparks it.
   */
  static final long QUIET = Long.MAX_VALUE;

  /** A sleep until this boundary has no deadline. */
  static final long NO_DEADLINE = Long.MAX_VALUE;

  /** {@link #prepareSleep} found work: no sleep. */
  static final long STAY_AWAKE = Long.MIN_VALUE;

  private static final long JOIN_ATTEMPT_MILLIS = 200;
  private static final int JOIN_ATTEMPTS = 25;

  private static final VarHandle LIFECYCLE;
  private static final VarHandle WAKE_BELOW;
  private static final VarHandle RETIRED;
  private static final VarHandle HAND_OFF_FAILURES;
  private static final VarHandle WAKE_UPS;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      LIFECYCLE = l.findVarHandle(HashedWheelScheduler.class, "lifecycle", int.class);
      WAKE_BELOW = l.findVarHandle(HashedWheelScheduler.class, "wakeBelow", long.class);
      RETIRED = l.findVarHandle(HashedWheelScheduler.class, "retired", long.class);
      HAND_OFF_FAILURES =
          l.findVarHandle(HashedWheelScheduler.class, "handOffFailures", long.class);
      WAKE_UPS = l.findVarHandle(HashedWheelScheduler.class, "wakeUps", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  // ---- immutable, any thread ----
  private final long tickNanos;
  private final LongSupplier nanoClock;
  private final long startNanos;
  private final Consumer<? super Throwable> errorHandler;

  /** The timer thread; null in manual mode, where the caller of {@link #runDueTimers()} ticks. */
  private final Thread thread;

  /** New and re-armed timers, any thread -> timer thread (lock-free MPSC). */
  private final Queue<WheelTimer> scheduled = new ConcurrentLinkedQueue<>();

  /** Timers cancelled while WAITING, any thread -> timer thread, which unlinks them. */
  private final Queue<WheelTimer> cancelled = new ConcurrentLinkedQueue<>();

  /** Timers ever enqueued (new or re-armed); any thread increments, striped to avoid contention. */
  private final LongAdder submitted = new LongAdder();

  /** Hand-off callback for the wheel, created once so expiring allocates nothing. */
  private final Consumer<WheelTimer> handOff = this::handOff;

  // ---- any thread ----
  /** OPEN/CLOSED. lv/cas: close races schedule, whose offer-then-recheck must not reorder. */
  private int lifecycle;

  /**
   * What the sleeping timer thread must be woken for: a timer due before this tick boundary; {@link
   * #AWAKE}: nothing (it is awake); {@link #QUIET}: any timer, and any cancel. sv then queue check
   * (timer thread) against offer then lv/cas (producer): a Dekker pair, so no wake-up is lost.
   */
  private long wakeBelow = AWAKE;

  // ---- written by the timer thread only, read by any thread ----
  /** Timers let go (handed off, cancelled and unlinked, dropped). lp/so: single writer. */
  private long retired;

  /** Hand-offs the executor refused. lp/so: single writer; readers want a recent value. */
  private long handOffFailures;

  // ---- timer thread only ----
  private final TimingWheel wheel;

  /** Whether the last turn placed or unlinked a timer: timers are being scheduled or cancelled. */
  private boolean placedOrUnlinked;

  /** Sleeps the timer thread has woken from, for tests. lp/so: single writer. */
  private long wakeUps;

  /** Tasks dropped when the timer thread stopped; plain: published to the closer by Thread.join. */
  private List<Runnable> neverRun = List.of();

  /**
   * A scheduler on the system clock whose errors are logged.
   *
   * @param threadFactory makes the timer thread (the runtime names it {@code <system>-scheduler-1})
   * @param tickDuration resolution; positive
   * @param ticksPerWheel buckets in the wheel; a power of two
   */
  public HashedWheelScheduler(
      ThreadFactory threadFactory, Duration tickDuration, int ticksPerWheel) {
    this(threadFactory, tickDuration, ticksPerWheel, System::nanoTime, HashedWheelScheduler::log);
  }

  /**
   * A scheduler with its own timer thread.
   *
   * @param threadFactory makes the timer thread
   * @param tickDuration resolution; positive
   * @param ticksPerWheel buckets in the wheel; a power of two
   * @param nanoClock monotonic nanosecond clock, like {@link System#nanoTime()}
   * @param errorHandler receives hand-off failures and any error in the timer loop; must not block
   */
  public HashedWheelScheduler(
      ThreadFactory threadFactory,
      Duration tickDuration,
      int ticksPerWheel,
      LongSupplier nanoClock,
      Consumer<? super Throwable> errorHandler) {
    this(
        Objects.requireNonNull(threadFactory, "threadFactory"),
        tickDuration,
        ticksPerWheel,
        nanoClock,
        errorHandler,
        true);
  }

  /**
   * A scheduler without a timer thread, for deterministic tests: time moves only when the test
   * advances {@code nanoClock}, and timers are handed off only inside {@link #runDueTimers()}.
   */
  static HashedWheelScheduler manual(
      Duration tickDuration,
      int ticksPerWheel,
      LongSupplier nanoClock,
      Consumer<? super Throwable> errorHandler) {
    return new HashedWheelScheduler(
        null, tickDuration, ticksPerWheel, nanoClock, errorHandler, false);
  }

  private HashedWheelScheduler(
      ThreadFactory threadFactory,
      Duration tickDuration,
      int ticksPerWheel,
      LongSupplier nanoClock,
      Consumer<? super Throwable> errorHandler,
      boolean withThread) {
    Objects.requireNonNull(tickDuration, "tickDuration");
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler");
    if (tickDuration.isNegative() || tickDuration.isZero()) {
      throw new IllegalArgumentException("tickDuration must be positive: " + tickDuration);
    }
    if (ticksPerWheel <= 0 || Integer.bitCount(ticksPerWheel) != 1) {
      throw new IllegalArgumentException(
          "ticksPerWheel must be a positive power of two: " + ticksPerWheel);
    }
    this.tickNanos = Math.min(saturatedNanos(tickDuration), MAX_DEADLINE);
    this.wheel = new TimingWheel(ticksPerWheel);
    this.startNanos = nanoClock.getAsLong();
    if (withThread) {
      Thread t = threadFactory.newThread(this::runTimerThread);
      if (t == null) {
        throw new IllegalStateException("threadFactory returned no thread: " + threadFactory);
      }
      this.thread = t;
      t.start(); // last: the start is the happens-before edge that publishes every field above
    } else {
      this.thread = null;
    }
  }

  // ------------------------------------------------------------------ Scheduler (any thread)

  @Override
  public Cancellable scheduleOnce(Duration delay, Runnable task, Executor executor) {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(executor, "executor");
    ensureOpen();
    return submit(new WheelTimer(this, task, executor, 0L), deadlineAfter(delay));
  }

  @Override
  public Cancellable scheduleAtFixedRate(
      Duration initialDelay, Duration interval, Runnable task, Executor executor) {
    Objects.requireNonNull(initialDelay, "initialDelay");
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(executor, "executor");
    long period = positiveNanos(interval, "interval");
    ensureOpen();
    return submit(new WheelTimer(this, task, executor, period), deadlineAfter(initialDelay));
  }

  @Override
  public Cancellable scheduleWithFixedDelay(
      Duration initialDelay, Duration delay, Runnable task, Executor executor) {
    Objects.requireNonNull(initialDelay, "initialDelay");
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(executor, "executor");
    long period = positiveNanos(delay, "delay");
    ensureOpen();
    return submit(new WheelTimer(this, task, executor, -period), deadlineAfter(initialDelay));
  }

  // ------------------------------------------------------------------ lifecycle and stats

  /**
   * Timers scheduled and not yet handed off, cancelled-and-unlinked or dropped; a periodic task
   * counts while it waits for its next run, not while it runs. Approximate while other threads
   * schedule or the timer thread works (it sums a striped counter); exact when all is quiet. A
   * cancelled timer counts until the timer thread has unlinked it (within a tick). Zero once
   * closed.
   *
   * @return the approximate number of pending timers
   */
  public int pendingTimers() {
    if (lvLifecycle() != OPEN) {
      return 0;
    }
    long r = lvRetired(); // read first: every retirement it covers follows its submission
    long pending = submitted.sum() - r;
    return (int) Math.max(0L, Math.min(Integer.MAX_VALUE, pending));
  }

  /**
   * Hand-offs the executor refused (the task was dropped and the error handler told).
   *
   * @return the count so far
   */
  public long handOffFailures() {
    return lvHandOffFailures();
  }

  /**
   * The resolution.
   *
   * @return the tick duration
   */
  public Duration tickDuration() {
    return Duration.ofNanos(tickNanos);
  }

  /** Stops the timer thread and drops the timers not yet handed off; idempotent. */
  @Override
  public void close() {
    shutdownNow();
  }

  /**
   * Stops the timer thread, waiting for it up to about five seconds, and drops the timers not yet
   * handed off, marking their handles cancelled. Tasks already handed to an executor are not
   * affected. Idempotent: later calls return an empty list.
   *
   * @return the tasks of the dropped timers (empty if called from the timer thread, or if the timer
   *     thread could not be stopped in time, which is reported to the error handler)
   */
  public List<Runnable> shutdownNow() {
    if (!casLifecycle(OPEN, CLOSED)) {
      return List.of();
    }
    if (thread == null) {
      return Collections.unmodifiableList(dropAll());
    }
    if (Thread.currentThread() == thread) {
      return List.of(); // from a task run inline; the loop drops the timers on its way out
    }
    LockSupport.unpark(thread);
    boolean interrupted = false;
    for (int attempt = 0; thread.isAlive() && attempt < JOIN_ATTEMPTS; attempt++) {
      try {
        thread.join(JOIN_ATTEMPT_MILLIS);
      } catch (InterruptedException e) {
        interrupted = true; // keep the wait bounded but finish it; restore the flag below
      }
      if (thread.isAlive()) {
        thread.interrupt(); // frees a hand-off blocked in a bounded executor's execute()
        LockSupport.unpark(thread);
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      report(
          new IllegalStateException(
              "timer thread " + thread.getName() + " did not stop; its timers are abandoned"));
      return List.of();
    }
    return Collections.unmodifiableList(neverRun); // !isAlive(): the thread's writes are visible
  }

  @Override
  public String toString() {
    return "HashedWheelScheduler[tick="
        + tickDuration()
        + ", pending="
        + pendingTimers()
        + (lvLifecycle() == OPEN ? "" : ", closed")
        + "]";
  }

  // ------------------------------------------------------------------ manual mode (tests)

  /**
   * For tests: how many times the timer thread has woken from a sleep.
   */
  long wakeUps() {
    return lvWakeUps();
  }

  /** For tests: what a producer's new timer must be due before to wake the timer thread. */
  long lvWakeBelowForTest() {
    return lvWakeBelow();
  }

  /**
   * Manual mode only: processes, on the calling thread, every tick boundary the clock has reached,
   * handing off the due timers, and places every queued timer. Only one thread may call it.
   */
  void runDueTimers() {
    if (thread != null) {
      throw new IllegalStateException("runDueTimers() is for manual mode; " + thread + " ticks");
    }
    ensureOpen();
    do {
      doWork();
    } while (!scheduled.isEmpty() || !cancelled.isEmpty());
  }

  // ------------------------------------------------------------------ producer side (any thread)

  private WheelTimer submit(WheelTimer t, long deadline) {
    t.deadline = deadline;
    t.targetTick = tickAtOrAfter(deadline);
    if (!enqueue(t)) {
      throw closedException();
    }
    return t;
  }

  /**
   * Hands a WAITING timer to the timer thread (any thread; plain fields are published by the
   * queue).
   *
   * @return false if the scheduler closed and the timer was withdrawn (now CANCELLED)
   */
  private boolean enqueue(WheelTimer t) {
    submitted.increment(); // before the offer, so pendingTimers() never undercounts below zero
    scheduled.offer(t);
    if (lvLifecycle() != OPEN) {
      // Raced with close: if the final drain has not claimed it, withdraw it. Either way the
      // task is in shutdownNow()'s list or the caller learns it was not scheduled.
      if (t.casState(WheelTimer.WAITING, WheelTimer.CANCELLED)) {
        return false;
      }
      return true;
    }
    // Producer half of the sleep handshake (see sleep): the offer was a CAS on the queue's tail,
    // so this volatile load cannot come before it.
    long below = lvWakeBelow();
    if (t.targetTick < below && casWakeBelow(below, AWAKE) && thread != null) {
      LockSupport.unpark(thread);
    }
    return true;
  }

  /**
   * A timer went WAITING -> CANCELLED: let the timer thread unlink it. A thread sleeping after a
   * quiet turn is woken (the same handshake as a new timer's), so a cancelled timer does not stay
   * linked until the earliest deadline; one that naps until the next tick unlinks it then.
   */
  void onCancelled(WheelTimer t) {
    if (lvLifecycle() == OPEN) {
      cancelled.offer(t);
      if (lvWakeBelow() == QUIET && casWakeBelow(QUIET, AWAKE) && thread != null) {
        LockSupport.unpark(thread);
      }
    }
  }

  /** Executor thread, after a periodic run completed: computes the next deadline and re-queues. */
  void rearm(WheelTimer t) {
    long now = nanoClock.getAsLong() - startNanos;
    long next =
        t.period > 0 ? nextGridPoint(t.deadline, t.period, now) : saturatedAdd(now, -t.period);
    t.deadline = next;
    t.targetTick = tickAtOrAfter(next);
    if (t.casState(WheelTimer.RUNNING, WheelTimer.WAITING)) { // fails if cancelled during the run
      enqueue(t); // if closed meanwhile, the timer is withdrawn quietly
    }
  }

  // ------------------------------------------------------------------ timer thread

  private void runTimerThread() {
    try {
      while (lvLifecycle() == OPEN) {
        try {
          Thread.interrupted(); // a stray interrupt must not turn park() into a busy spin
          if (!doWork()) {
            sleep(placedOrUnlinked);
          }
        } catch (Throwable e) {
          report(e); // the loop never dies
        }
      }
    } finally {
      neverRun = dropAll();
    }
  }

  /**
   * One turn: place queued timers, unlink cancelled ones, hand off what is due.
   *
   * @return whether a queue still holds entries beyond the drain limit
   */
  private boolean doWork() {
    long reached = Math.floorDiv(nanoClock.getAsLong() - startNanos, tickNanos);
    wheel.skipTo(reached); // nothing linked: no need to walk empty buckets after a long park
    placedOrUnlinked = false;
    boolean backlog = drainCancelled();
    backlog |= drainScheduled();
    while (wheel.tick() <= reached) {
      wheel.expireNext(handOff);
    }
    return backlog;
  }

  private boolean drainScheduled() {
    for (int i = 0; i < DRAIN_LIMIT; i++) {
      WheelTimer t = scheduled.poll();
      if (t == null) {
        return false;
      }
      placedOrUnlinked = true;
      if (t.lvState() == WheelTimer.WAITING) {
        wheel.add(t); // if it is cancelled from now on, its cancel-queue entry unlinks it
      } else {
        retire(); // cancelled while queued
      }
    }
    return !scheduled.isEmpty();
  }

  private boolean drainCancelled() {
    for (int i = 0; i < DRAIN_LIMIT; i++) {
      WheelTimer t = cancelled.poll();
      if (t == null) {
        return false;
      }
      placedOrUnlinked = true;
      if (wheel.remove(t)) { // not linked: still queued (dropped there) or already expired
        retire();
      }
    }
    return !cancelled.isEmpty();
  }

  /** A timer reached its boundary and was unlinked. */
  private void handOff(WheelTimer t) {
    retire();
    if (!t.casState(WheelTimer.WAITING, WheelTimer.HANDED)) {
      return; // cancelled; its cancel-queue entry will find it unlinked
    }
    try {
      t.executor.execute(t);
    } catch (Throwable e) {
      if (t.casState(WheelTimer.HANDED, WheelTimer.DONE)) { // never started: the hand-off failed
        soHandOffFailures(lpHandOffFailures() + 1);
      }
      report(e); // else: an inline executor ran it and the task threw
    }
  }

  /**
   * Timer thread, after a turn that left nothing queued: parks until there is something to do.
   *
   * <ul>
   *   <li>No timer linked: no deadline; any new timer wakes it.
   *   <li>Timers linked, and the last turn placed or unlinked one (timers are being scheduled or
   *       cancelled): until the next tick boundary, as a wheel ticks; only a new timer due before
   *       that boundary wakes it, later ones and cancels wait for it.
   *   <li>Timers linked, and the last turn found nothing to place or unlink: until the boundary
   *       of the earliest timer ({@link TimingWheel#nextDueTick}), however far; any new timer or
   *       cancel wakes it (and the turn that follows is a busy one).
   * </ul>
   *
   * <p>Handshake, so that no wake-up is lost: the thread stores what it must be woken for in
   * {@code wakeBelow} (a volatile store); before a sleep that may outlast a tick (the first and
   * third cases) it then re-checks both queues. A producer offers its timer (or cancel) to a queue
   * (a CAS), then loads {@code wakeBelow} (a volatile load) and, if its timer is due before that
   * boundary (any timer or cancel: QUIET), CASes it to AWAKE and unparks the thread. In the total
   * order of these accesses either the re-check sees the offer or the producer sees the published
   * value; the CAS lets one producer of many pay for the unpark; an unpark that precedes the park
   * leaves a permit, so the park returns at once. A timer due at or after the boundary needs no
   * wake-up: the thread wakes at that boundary and places queued timers before it hands off due
   * ones. The nap until the next tick skips the re-check, as a ticking wheel does (re-checking
   * there would turn a steady stream of schedules and cancels into a spinning timer thread): a
   * timer offered between the last drain and the store waits for that boundary, at most one tick,
   * the wheel's resolution.
   */
  private void sleep(boolean busy) {
    long until = prepareSleep(busy);
    try {
      if (until == STAY_AWAKE) {
        return;
      }
      if (until == NO_DEADLINE) {
        LockSupport.park(this);
      } else {
        long wait = until * tickNanos - (nanoClock.getAsLong() - startNanos);
        if (wait > 0) {
          LockSupport.parkNanos(this, wait);
        }
      }
      soWakeUps(lpWakeUps() + 1);
    } finally {
      soWakeBelow(AWAKE); // a producer that still reads the old value unparks once: harmless
    }
  }

  /**
   * Timer thread half of the handshake in {@link #sleep}: publishes what the thread must be woken
   * for, then re-checks what a producer may have offered before that store. Package-private for
   * the jcstress test, which runs it on its own thread against a manual scheduler.
   *
   * @return the tick boundary to sleep until, {@link #NO_DEADLINE}, or {@link #STAY_AWAKE}
   */
  long prepareSleep(boolean busy) {
    long until;
    long below;
    if (wheel.size() == 0) {
      until = NO_DEADLINE;
      below = QUIET;
    } else if (busy) {
      until = wheel.tick();
      below = until;
    } else {
      until = wheel.nextDueTick();
      below = QUIET;
    }
    svWakeBelow(below);
    if (below == QUIET && (!scheduled.isEmpty() || !cancelled.isEmpty())) {
      return STAY_AWAKE; // offered before our store: the next turn takes it
    }
    if (lvLifecycle() != OPEN) {
      return STAY_AWAKE; // closed (close also unparks us, so this only saves the park)
    }
    return until;
  }


  /** Timer thread (or the manual-mode caller), once closed: unlink and drop everything. */
  private List<Runnable> dropAll() {
    List<Runnable> dropped = new ArrayList<>();
    Consumer<WheelTimer> drop =
        t -> {
          retire();
          if (t.casState(WheelTimer.WAITING, WheelTimer.CANCELLED)) {
            dropped.add(t.task);
          }
        };
    for (WheelTimer t; (t = scheduled.poll()) != null; ) {
      drop.accept(t);
    }
    wheel.clear(drop);
    cancelled.clear();
    return dropped;
  }

  private void retire() {
    soRetired(lpRetired() + 1);
  }

  private void report(Throwable e) {
    try {
      errorHandler.accept(e);
    } catch (Throwable ignored) {
      // an error handler that throws must not take the timer thread down with it
    }
  }

  private static void log(Throwable e) {
    if (e instanceof RejectedExecutionException) {
      LOG.warn("Executor rejected a due timer task; it is dropped", e);
    } else {
      LOG.error("Timer task failed on the timer thread", e);
    }
  }

  // ------------------------------------------------------------------ time arithmetic

  /** Deadline, in nanos since start, of a delay measured from now; at least one nanosecond. */
  private long deadlineAfter(Duration delay) {
    long d = Math.max(1L, saturatedNanos(delay));
    return saturatedAdd(nanoClock.getAsLong() - startNanos, d);
  }

  private long tickAtOrAfter(long deadline) {
    return -Math.floorDiv(-deadline, tickNanos);
  }

  /** First point of the grid {@code deadline + k * period} (k >= 1) strictly after {@code now}. */
  private static long nextGridPoint(long deadline, long period, long now) {
    long next = saturatedAdd(deadline, period);
    if (next > now) {
      return next;
    }
    long k = (now - deadline) / period + 1; // skips the missed points instead of bursting
    return k > (MAX_DEADLINE - deadline) / period ? MAX_DEADLINE : deadline + k * period;
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return (b > 0 && sum < a) || sum > MAX_DEADLINE ? MAX_DEADLINE : sum;
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  private static long positiveNanos(Duration d, String name) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + d);
    }
    return Math.min(MAX_DEADLINE, Math.max(1L, saturatedNanos(d)));
  }

  private void ensureOpen() {
    if (lvLifecycle() != OPEN) {
      throw closedException();
    }
  }

  private static IllegalStateException closedException() {
    return new IllegalStateException("scheduler closed");
  }

  // ------------------------------------------------------------------ accessors (see package-info)

  private int lvLifecycle() {
    return (int) LIFECYCLE.getVolatile(this);
  }

  private boolean casLifecycle(int expected, int update) {
    return LIFECYCLE.compareAndSet(this, expected, update);
  }

  private long lvWakeBelow() {
    return (long) WAKE_BELOW.getVolatile(this);
  }

  private void svWakeBelow(long value) {
    WAKE_BELOW.setVolatile(this, value);
  }

  private void soWakeBelow(long value) {
    WAKE_BELOW.setRelease(this, value);
  }

  private boolean casWakeBelow(long expected, long update) {
    return WAKE_BELOW.compareAndSet(this, expected, update);
  }

  private long lpWakeUps() {
    return (long) WAKE_UPS.get(this);
  }

  private long lvWakeUps() {
    return (long) WAKE_UPS.getVolatile(this);
  }

  private void soWakeUps(long value) {
    WAKE_UPS.setRelease(this, value);
  }

  private long lpRetired() {
    return (long) RETIRED.get(this);
  }

  private long lvRetired() {
    return (long) RETIRED.getVolatile(this);
  }

  private void soRetired(long value) {
    RETIRED.setRelease(this, value);
  }

  private long lpHandOffFailures() {
    return (long) HAND_OFF_FAILURES.get(this);
  }

  private long lvHandOffFailures() {
    return (long) HAND_OFF_FAILURES.getVolatile(this);
  }

  private void soHandOffFailures(long value) {
    HAND_OFF_FAILURES.setRelease(this, value);
  }
}
