package dev.troupe.executors;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.jctools.queues.atomic.MpmcAtomicArrayQueue;

// Padding as class layers (JCTools style): HotSpot lays out a superclass's fields before its
// subclass's, so each layer of 16 longs (128 bytes, two cache lines, covering the adjacent-line
// prefetcher) keeps the hot fields between them off other fields' cache lines. All padded hot
// fields are longs, so the new (JDK 15+) field layout cannot move them into a 4-byte gap.

/** Keeps {@code state} off the cache line of whatever precedes the worker in the heap. */
abstract class WorkerPad0 {
  long p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
}

/**
 * The worker's run state: read by every producer on every submission, written by the worker on
 * idle transitions and by a waker on {@code IDLE -> WOKEN}. Accessors follow the vocabulary in
 * the package documentation.
 */
abstract class WorkerStateField extends WorkerPad0 {
  /** Running a task or looking for one; producers need not wake it. */
  static final long RUNNING = 0;
  /** Was idle and has been unparked by a producer or a peer; will look for work again. */
  static final long WOKEN = 1;
  /** May be parked; a producer that gives it work must wake it. */
  static final long IDLE = 2;
  /** Has left its loop (after shutdown); producers run late tasks themselves. */
  static final long EXITED = 3;

  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(WorkerStateField.class, "state", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private long state; // only through the accessors below

  /** Volatile load: one half of the Dekker handshake (producer side, after its offer). */
  final long lvState() {
    return (long) STATE.getVolatile(this);
  }

  /** Volatile store: publishes IDLE before the worker re-checks its queues (worker side). */
  final void svState(long value) {
    STATE.setVolatile(this, value);
  }

  /** CAS (volatile semantics): the one transition other threads make, IDLE to WOKEN. */
  final boolean casState(long expect, long update) {
    return STATE.compareAndSet(this, expect, update);
  }

  /** Atomic exchange (volatile semantics): the worker leaves a state a waker may race on. */
  final long xchgState(long value) {
    return (long) STATE.getAndSet(this, value);
  }
}

/** Separates the producer-read {@code state} from the worker-written counters. */
abstract class WorkerPad1 extends WorkerStateField {
  long p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
}

/**
 * Fields written by the worker thread only (single writer). The counters are stored opaque so
 * that monitoring threads read whole, eventually fresh values without ordering costs; the loop
 * bookkeeping is plain.
 */
abstract class WorkerOwnerFields extends WorkerPad1 {
  private static final VarHandle TASKS_RUN;
  private static final VarHandle TASKS_STOLEN;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      TASKS_RUN = lookup.findVarHandle(WorkerOwnerFields.class, "tasksRun", long.class);
      TASKS_STOLEN = lookup.findVarHandle(WorkerOwnerFields.class, "tasksStolen", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private long tasksRun;
  private long tasksStolen;
  /** Worker thread only, plain: counts polls to interleave the overflow queue. */
  long pollRound;
  /** Worker thread only, plain: the stripe stolen from last, tried first next time. */
  long lastVictim = -1;
  /** Worker thread only: per peer, the tasks-run count last seen (allocated on this thread). */
  long[] seenTasksRun;
  /** Worker thread only: per peer, when that count was first seen (System.nanoTime). */
  long[] seenSince;

  /** Opaque load: any thread, for statistics; no ordering needed. */
  final long loTasksRun() {
    return (long) TASKS_RUN.getOpaque(this);
  }

  /** Single writer: a plain read of its own value and an opaque store (atomic, no fence). */
  final void incrementTasksRun() {
    TASKS_RUN.setOpaque(this, tasksRun + 1);
  }

  /** Opaque load: any thread, for statistics; no ordering needed. */
  final long loTasksStolen() {
    return (long) TASKS_STOLEN.getOpaque(this);
  }

  /** Single writer: a plain read of its own value and an opaque store (atomic, no fence). */
  final void incrementTasksStolen() {
    TASKS_STOLEN.setOpaque(this, tasksStolen + 1);
  }
}

/** Separates the worker-written fields from the read-mostly references below. */
abstract class WorkerPad2 extends WorkerOwnerFields {
  long p200, p201, p202, p203, p204, p205, p206, p207, p208, p209, p210, p211, p212, p213, p214, p215;
}

/**
 * One stripe of an {@link AffinityPool}: a bounded MPMC queue, an unbounded overflow queue and
 * the thread that drains them. See {@link AffinityPool} for the design; this class holds the
 * worker loop and the wake-up handshake.
 */
final class AffinityWorker extends WorkerPad2 implements Runnable {

  /** The worker of the current thread, whichever pool it belongs to. */
  private static final ThreadLocal<AffinityWorker> CURRENT = new ThreadLocal<>();

  /** A thief steals only from a stripe with at least this many queued tasks (see AffinityPool). */
  static final int STEAL_MIN_BACKLOG = 2;

  /**
   * A peer that is RUNNING but has not finished a task for this long is stuck in a long task; a
   * single task queued behind it may then be stolen.
   */
  static final long STUCK_NANOS = 1_000_000L;

  /** Every this many polls the overflow queue is polled first, so it cannot starve. */
  private static final int OVERFLOW_INTERLEAVE_MASK = 31;

  final AffinityPool pool;
  final int index;
  final MpmcAtomicArrayQueue<Runnable> queue;
  final Queue<Runnable> overflow = new ConcurrentLinkedQueue<>();
  private final Supplier<? extends IdleStrategy> idleStrategies;
  /** Set once by the pool's constructor before the thread starts (Thread.start orders it). */
  Thread thread;

  AffinityWorker(
      AffinityPool pool, int index, int queueCapacity, Supplier<? extends IdleStrategy> idle) {
    this.pool = pool;
    this.index = index;
    this.queue = new MpmcAtomicArrayQueue<>(queueCapacity);
    this.idleStrategies = idle;
  }

  /** Volatile load; for monitoring and tests: whether the worker is idle (maybe parked). */
  boolean isIdle() {
    return lvState() == IDLE;
  }

  /** Returns the calling thread's worker if it belongs to {@code pool}, else null. */
  static AffinityWorker current(AffinityPool pool) {
    AffinityWorker w = CURRENT.get();
    return w != null && w.pool == pool ? w : null;
  }

  // ---------------------------------------------------------------- producer side (any thread)

  /**
   * Makes sure this worker will see a task just placed in its queue or overflow. Producer half of
   * the Dekker handshake: the placement was a volatile write (the queue's CAS of its producer
   * index, or the overflow's CAS of its tail), so this volatile load of {@code state} cannot be
   * ordered before it. Either the worker's later re-check sees the task, or this load sees IDLE
   * (or EXITED) and acts. The common case (worker RUNNING or already WOKEN) is this one load.
   */
  void signal() {
    if (lvState() != RUNNING) {
      signalSlow();
    }
  }

  private void signalSlow() {
    for (;;) {
      long s = lvState();
      if (s == IDLE) {
        if (wake()) {
          return;
        }
      } else if (s == EXITED) {
        pool.runLeftovers(this); // late submission after shutdown: nobody else will poll it
        return;
      } else {
        return; // RUNNING or WOKEN: awake, will poll again before it parks
      }
    }
  }

  /**
   * IDLE to WOKEN by CAS, so that of many producers only one pays for the unpark, then unpark.
   * Returns false if the state changed first.
   */
  boolean wake() {
    if (casState(IDLE, WOKEN)) {
      pool.idleWorkers.decrement(); // whoever leaves IDLE decrements
      LockSupport.unpark(thread);
      return true;
    }
    return false;
  }

  // ---------------------------------------------------------------- worker side (own thread)

  @Override
  public void run() {
    if (Thread.currentThread() != thread) {
      throw new IllegalStateException("an AffinityPool worker runs on its own thread only");
    }
    CURRENT.set(this);
    int n = pool.workers.length;
    seenTasksRun = new long[n];
    seenSince = new long[n];
    Arrays.fill(seenTasksRun, -1L);
    try {
      // Created here so that the strategy's mutable fields live in this thread's allocation
      // buffer, not next to another worker's.
      loop(idleStrategies.get());
    } finally {
      CURRENT.remove();
      pool.workerExited();
    }
  }

  private void loop(IdleStrategy idle) {
    final AffinityPool pool = this.pool;
    for (;;) {
      int runState = pool.lvRunState();
      if (runState >= AffinityPool.STOP) {
        break;
      }
      Runnable task = pollOwn();
      boolean stolen = false;
      if (task == null) {
        task = steal();
        stolen = task != null;
      }
      if (task != null) {
        if (lvState() != RUNNING) {
          becomeRunning();
          idle.reset();
        }
        if (!stolen) {
          callForHelpIfBacklogged();
        }
        if (runState == AffinityPool.RUNNING) {
          Thread.interrupted(); // a stray interrupt must not leak into the next task
        }
        runTask(task);
        continue;
      }
      if (runState != AffinityPool.RUNNING) {
        break; // shut down and nothing left in our queues
      }
      if (lvState() != IDLE) {
        // Worker half of the handshake: publish IDLE (volatile store), then loop to re-check
        // the queues (volatile loads) before idling; a producer that offered before our store
        // is seen by the re-check, one that offers after it sees IDLE and unparks us.
        svState(IDLE);
        pool.idleWorkers.increment();
        continue;
      }
      idle.idle();
    }
    exit();
  }

  /** Leaves IDLE/WOKEN for RUNNING; whoever leaves IDLE decrements the idle count. */
  private void becomeRunning() {
    if (xchgState(RUNNING) == IDLE) {
      pool.idleWorkers.decrement();
    }
  }

  private void exit() {
    if (xchgState(EXITED) == IDLE) {
      pool.idleWorkers.decrement();
    }
    // Final sweep after publishing EXITED: a producer that read our state before this store
    // relies on us to see its task; one that reads EXITED runs its task itself.
    Runnable task;
    while ((task = pollOwn()) != null) {
      runTask(task);
    }
  }

  /** Own queue first, the overflow when the queue is empty or every 32nd poll. */
  Runnable pollOwn() {
    Runnable task;
    if ((pollRound++ & OVERFLOW_INTERLEAVE_MASK) == 0 && (task = overflow.poll()) != null) {
      return task;
    }
    task = queue.poll();
    return task != null ? task : overflow.poll();
  }

  void runTask(Runnable task) {
    try {
      task.run();
    } catch (Throwable t) {
      pool.reportError(t);
    }
    incrementTasksRun();
  }

  /**
   * If peers are idle and our queue still holds a backlog a thief may take, wake one peer. Reads
   * one shared counter (rarely written while the pool is busy) per task; the queue size only when
   * some peer is idle.
   */
  private void callForHelpIfBacklogged() {
    if (pool.workStealing && pool.idleWorkers.lv() > 0 && backlog() >= STEAL_MIN_BACKLOG) {
      pool.wakeOneIdle(index);
    }
  }

  /** Approximate number of queued tasks; the overflow counts as a full queue. */
  int backlog() {
    int size = queue.size();
    return overflow.isEmpty() ? size : size + queue.capacity();
  }

  /**
   * The peer's backlog, except that a single queued task counts as stealable only while the peer
   * is RUNNING without having finished a task for {@link #STUCK_NANOS}: a peer that just ran dry
   * and is about to poll its one task (the ping-pong case), or an idle peer being woken, keeps it.
   */
  private int stealableLoad(AffinityWorker peer) {
    int load = peer.backlog();
    if (load != 1) {
      return load;
    }
    long run = peer.loTasksRun();
    long now = System.nanoTime();
    int i = peer.index;
    if (run != seenTasksRun[i] || peer.lvState() != RUNNING) {
      seenTasksRun[i] = run;
      seenSince[i] = now;
      return load;
    }
    return now - seenSince[i] >= STUCK_NANOS ? STEAL_MIN_BACKLOG : load;
  }

  /**
   * Takes one task from the most loaded other stripe (the last victim first, while it still has a
   * backlog) and binds it to this stripe. A stripe is a victim if it holds at least {@link
   * #STEAL_MIN_BACKLOG} tasks, or one task behind a worker stuck in a long task (see {@link
   * #stealableLoad}). MPMC polls make a task's removal exclusive, so a stolen task is never also
   * run by its owner.
   */
  private Runnable steal() {
    AffinityWorker[] workers = pool.workers;
    int n = workers.length;
    if (n == 1 || !pool.workStealing) {
      return null;
    }
    AffinityWorker victim = null;
    int last = (int) lastVictim;
    if (last >= 0 && workers[last].backlog() >= STEAL_MIN_BACKLOG) {
      victim = workers[last];
    } else {
      int best = STEAL_MIN_BACKLOG - 1;
      for (int k = 1; k < n; k++) {
        AffinityWorker w = workers[(index + k) % n];
        int load = stealableLoad(w);
        if (load > best) {
          best = load;
          victim = w;
        }
      }
      if (victim == null) {
        lastVictim = -1;
        return null;
      }
    }
    Runnable task = victim.queue.poll();
    if (task == null) {
      task = victim.overflow.poll();
    }
    if (task == null) {
      lastVictim = -1;
      return null;
    }
    lastVictim = victim.index;
    incrementTasksStolen();
    if (task instanceof Affine) {
      ((Affine) task).affinity(index); // plain racy write: see Affine
    }
    return task;
  }
}
