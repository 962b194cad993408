package dev.troupe.actor.internal.dispatch;

import dev.troupe.actor.Scheduler;
import dev.troupe.executors.AffinityPool;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Warns when every thread of a dispatcher's affinity pool has been inside one actor's turn for
 * longer than {@code starvation-warning-after}: then the dispatcher's other actors wait, usually
 * because actors block (a sleep, a JDBC call, a lock) on threads meant for short turns. The warning
 * names each thread, the actor it runs and the top of its stack, like a thread dump of the
 * culprits, once per starved stretch.
 *
 * <p>What it costs: nothing per message. It looks at the pool every half threshold on the system's
 * scheduler, but only while the pool has work: it is armed by a worker that leaves idle (the
 * pool's wake listener: one volatile read on a wake-up, which is already a volatile exchange), and
 * disarms itself at a look that finds every worker idle, so an idle system has no timer and wakes
 * no thread. Arming and disarming race safely: the look publishes "disarmed" (a volatile write)
 * before it checks the workers once more, and a worker publishes that it runs (a volatile
 * exchange) before it reads the flag, so one of the two always sees the other.
 *
 * <p>A look reads, per worker, the task it runs now and the count of tasks it has finished: the
 * same task with the same count at two looks is one turn that has lasted at least that long.
 * Looks run on the scheduler's thread only.
 */
final class StarvationWatch {
  /** Stack frames shown per stuck thread. */
  static final int FRAMES = 12;

  private final String dispatcherId;
  private final long afterNanos;
  private final long lookEveryNanos;
  private final Logger log;
  private final Supplier<Scheduler> timer;
  private final AtomicBoolean armed = new AtomicBoolean();
  private volatile AffinityPool pool;

  // the scheduler's thread only
  private long[] lastCount;
  private long[] since;
  private boolean warned;

  /**
   * @param dispatcherId the dispatcher's config id, for the warning
   * @param after the threshold
   * @param log where the warning goes
   * @param timer the system's scheduler, once it exists (null before)
   */
  StarvationWatch(String dispatcherId, Duration after, Logger log, Supplier<Scheduler> timer) {
    this.dispatcherId = dispatcherId;
    this.afterNanos = after.toNanos();
    this.lookEveryNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(10), afterNanos / 2);
    this.log = log;
    this.timer = timer;
  }

  /**
   * The pool to watch, once built (its workers may call {@link #onWake} before). Its workers start
   * running, not idle, so no wake-up may ever announce the first tasks: the watch arms itself
   * here, and its first look disarms it if the pool is idle by then.
   */
  void watch(AffinityPool p) {
    pool = p;
    onWake();
  }

  /** The pool's wake listener: a worker left idle for work. Any worker thread; must not throw. */
  void onWake() {
    if (!armed.get() && armed.compareAndSet(false, true)) {
      schedule();
    }
  }

  /** @return whether a look is pending, for tests */
  boolean armed() {
    return armed.get();
  }

  private void schedule() {
    Scheduler t = timer.get();
    AffinityPool p = pool;
    if (t == null || p == null || p.isShutdown()) {
      armed.set(false); // starting up or shutting down: the next wake-up tries again
      return;
    }
    try {
      t.scheduleOnce(Duration.ofNanos(lookEveryNanos), this::lookSafely, Runnable::run);
    } catch (RuntimeException terminated) {
      armed.set(false); // the scheduler is closed with the system
    }
  }

  /** A look that cannot leave the watch armed without a pending look, whatever it meets. */
  private void lookSafely() {
    try {
      look();
    } catch (RuntimeException | Error e) {
      armed.set(false); // the next wake-up arms it again
      log.debug("the starvation watch of dispatcher {} failed: {}", dispatcherId, e.toString());
    }
  }

  /** One look at the pool, on the scheduler's thread. */
  void look() {
    AffinityPool p = pool;
    if (p == null || p.isShutdown()) {
      armed.set(false);
      return;
    }
    int n = p.parallelism();
    long now = System.nanoTime();
    if (lastCount == null) {
      lastCount = new long[n];
      since = new long[n];
      java.util.Arrays.fill(lastCount, -1); // no count seen yet: every worker starts its stretch now
    }
    boolean busy = false;
    int stuck = 0;
    for (int i = 0; i < n; i++) {
      long count = p.completedTaskCount(i);
      Runnable task = p.runningTask(i);
      if (task == null || count != lastCount[i]) {
        lastCount[i] = count;
        since[i] = now;
      }
      if (task != null) {
        busy = true;
        if (now - since[i] >= afterNanos) {
          stuck++;
        }
      } else if (!p.isIdle(i)) {
        busy = true;
      }
    }
    if (stuck == n) {
      if (!warned) {
        warned = true;
        warn(p, now);
      }
    } else {
      warned = false;
    }
    if (busy) {
      schedule();
      return;
    }
    armed.set(false);
    for (int i = 0; i < n; i++) { // a worker that woke after its state was read above
      if (!p.isIdle(i)) {
        onWake();
        return;
      }
    }
  }

  private void warn(AffinityPool p, long now) {
    StringBuilder b = new StringBuilder();
    b.append("dispatcher ").append(dispatcherId).append(" is starved: all ").append(p.parallelism())
        .append(" of its threads have been inside one actor's turn for more than ")
        .append(TimeUnit.NANOSECONDS.toMillis(afterNanos))
        .append(" ms, so messages to its other actors wait. Blocking calls (sleeps, I/O, locks) belong on a")
        .append(" dispatcher of their own, e.g. one with executor = virtual-thread-executor; ")
        .append("starvation-warning-after of the dispatcher sets this threshold (0 = off).");
    for (int i = 0; i < p.parallelism(); i++) {
      Thread t = p.workerThread(i);
      Runnable task = p.runningTask(i);
      b.append("\n  ").append(t.getName()).append(" runs ")
          .append(task instanceof Mailbox m ? m.describeOwner() : String.valueOf(task))
          .append(" for ").append(TimeUnit.NANOSECONDS.toMillis(now - since[i])).append(" ms:");
      StackTraceElement[] frames = t.getStackTrace();
      for (int f = 0; f < Math.min(FRAMES, frames.length); f++) {
        b.append("\n      at ").append(frames[f]);
      }
      if (frames.length > FRAMES) {
        b.append("\n      ... ").append(frames.length - FRAMES).append(" more");
      }
    }
    log.warn("{}", b);
  }
}
