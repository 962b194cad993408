package dev.troupe.actor.internal.scheduler;

import dev.troupe.actor.Cancellable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Executor;

/**
 * One scheduled task: the cancel handle the caller gets, the node the wheel links, and the {@link
 * Runnable} handed to the executor (so a hand-off allocates nothing).
 *
 * <h2>States</h2>
 *
 * <pre>
 *   from     to         by
 *   WAITING  HANDED     timer thread: due, about to be handed to the executor
 *   WAITING  CANCELLED  cancel(), or close() dropping it
 *   HANDED   DONE       executor: a one-shot task starts; or the executor rejected it
 *   HANDED   RUNNING    executor: a periodic run starts
 *   HANDED   CANCELLED  cancel() before the task started
 *   RUNNING  WAITING    executor: the periodic run completed and the timer is re-armed
 *   RUNNING  DONE       executor: the periodic run threw
 *   RUNNING  CANCELLED  cancel() during the run (the run finishes, no re-arm follows)
 * </pre>
 *
 * WAITING means "in the schedule queue or linked in the wheel"; only a WAITING -> CANCELLED
 * transition leaves a node for the timer thread to unlink, so only that one goes to the cancel
 * queue. CANCELLED and DONE are terminal.
 */
final class WheelTimer implements Cancellable, Runnable {

  static final int WAITING = 0;
  static final int HANDED = 1;
  static final int RUNNING = 2;
  static final int DONE = 3;
  static final int CANCELLED = 4;

  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(WheelTimer.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  // ---- immutable, any thread ----
  private final HashedWheelScheduler scheduler;
  final Runnable task;
  final Executor executor;

  /** 0: once; &gt; 0: fixed rate with this interval; &lt; 0: fixed delay of {@code -period}. */
  final long period;

  // ---- any thread: raced state transitions, so volatile loads and CAS (lv/cas) ----
  @SuppressWarnings("unused") // accessed through STATE
  private volatile int state;

  // ---- written by whoever enqueues the timer (scheduling or re-arming thread) and then by the
  //      timer thread; plain: the queue's offer/poll and Executor.execute order the hand-overs ----
  /** Due time in nanos since the scheduler's start (for fixed rate: the current grid point). */
  long deadline;

  /**
   * First tick boundary at or after {@link #deadline}; once linked, the boundary the wheel placed
   * it at (later if that one had passed), whose bucket is {@code targetTick & mask}.
   */
  long targetTick;

  // ---- timer thread only, plain ----
  /** Links in a bucket's circular list; both null while not linked. */
  WheelTimer prev;

  WheelTimer next;

  WheelTimer(HashedWheelScheduler scheduler, Runnable task, Executor executor, long period) {
    this.scheduler = scheduler;
    this.task = task;
    this.executor = executor;
    this.period = period;
  }

  /** A bucket's sentinel: never scheduled, never handed off. */
  static WheelTimer sentinel() {
    WheelTimer s = new WheelTimer(null, null, null, 0L);
    s.prev = s;
    s.next = s;
    return s;
  }

  int lvState() {
    return (int) STATE.getVolatile(this);
  }

  boolean casState(int expected, int update) {
    return STATE.compareAndSet(this, expected, update);
  }

  boolean isPeriodic() {
    return period != 0L;
  }

  @Override
  public boolean cancel() {
    for (; ; ) {
      int s = lvState();
      switch (s) {
        case WAITING:
          if (casState(WAITING, CANCELLED)) {
            scheduler.onCancelled(this); // still queued or linked: let the timer thread unlink it
            return true;
          }
          break;
        case HANDED:
        case RUNNING: // RUNNING only for periodic timers: this run ends, no re-arm follows
          if (casState(s, CANCELLED)) {
            return true;
          }
          break;
        default: // DONE or CANCELLED
          return false;
      }
    }
  }

  @Override
  public boolean isCancelled() {
    return lvState() == CANCELLED;
  }

  /** Runs on the executor; checks it was not cancelled after the hand-off. */
  @Override
  public void run() {
    if (!isPeriodic()) {
      if (casState(HANDED, DONE)) {
        task.run();
      }
      return;
    }
    if (!casState(HANDED, RUNNING)) {
      return;
    }
    boolean completed = false;
    try {
      task.run();
      completed = true;
    } finally {
      if (completed) {
        scheduler.rearm(this);
      } else {
        casState(RUNNING, DONE); // a periodic task that throws is not run again (like STPE)
      }
    }
  }

  @Override
  public String toString() {
    return "WheelTimer[" + task + ", state=" + lvState() + ", period=" + period + "ns]";
  }
}
