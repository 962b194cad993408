// One file on purpose (see "Why one file" below): the padded field layers, the submission path, stealing and
// the shutdown protocol rest on one memory-ordering argument (run state, stripe table, worker
// state) that a reader must check as a whole; split, each part would cite the others' invariants.
package dev.troupe.executors;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

// Padding as class layers, as in AffinityWorker: the fields every submission and every worker
// step read sit between two 128-byte pads, so that whatever the collector copies next to the pool
// (a mailbox or an actor that one thread writes on every message, say) cannot share their cache
// lines. Every thread reads these fields on every message, so one written neighbour makes every
// other thread miss on every message. Measured on ExecutorComparison (JDK 17, 2 cores, 4 forks,
// throughput 20): with these pads, the workers' tail pad and the runtime dispatcher's, 25-29 M
// queries/s per fork; without, 12-17 M, changing at young collections as objects were copied.

/** Keeps the hot fields off the cache lines of whatever precedes the pool in the heap. */
abstract class AffinityPoolPad0 extends AbstractExecutorService {
  long p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
  /**
   * Fills the 4-byte gap after a compressed object header, which the field layout (JDK 15+)
   * would otherwise give to an int or a reference of a later layer, in front of the pad.
   */
  int p016;
}

/** What the submission path and the worker loop read: written once, or (run state) rarely. */
abstract class AffinityPoolHotFields extends AffinityPoolPad0 {
  /**
   * Empty slots at each end of the padded arrays: at least 128 bytes, so that whatever the heap
   * puts next to an array read on every submission, and writes, is not on its cache lines.
   */
  static final int TABLE_PAD = 32;

  private static final VarHandle RUN_STATE;

  static {
    try {
      RUN_STATE =
          MethodHandles.lookup().findVarHandle(AffinityPoolHotFields.class, "runState", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The number of stripes. */
  final int parallelism;
  /** The workers at {@code TABLE_PAD + stripe}, filled by the constructor (see {@link #stripe}). */
  final AffinityWorker[] paddedStripes;
  final IdleWorkers idleWorkers = new IdleWorkers();
  /** Whether idle workers steal from loaded stripes (and busy ones call for help). */
  final boolean workStealing;
  final QueueSelector selector;
  /**
   * The selector if it is the default one, else null: called as a final class, so a submission
   * does not read the selector object's header (a type check) on every call.
   */
  final AffinityFirstSelector defaultSelector;

  private int runState; // only through lvRunState / casRunState

  AffinityPoolHotFields(int parallelism, boolean workStealing, QueueSelector selector) {
    this.parallelism = parallelism;
    this.paddedStripes = new AffinityWorker[parallelism + 2 * TABLE_PAD];
    this.workStealing = workStealing;
    this.selector = selector;
    this.defaultSelector =
        selector instanceof AffinityFirstSelector ? (AffinityFirstSelector) selector : null;
  }

  /** The worker of {@code stripe} (unchecked: {@code 0 <= stripe < parallelism}). */
  final AffinityWorker stripe(int stripe) {
    return paddedStripes[TABLE_PAD + stripe];
  }

  /** Volatile load: submitters and workers must see shutdown promptly and in order. */
  final int lvRunState() {
    return (int) RUN_STATE.getVolatile(this);
  }

  /** CAS (volatile semantics): state only moves forward, RUNNING to SHUTDOWN to STOP. */
  final boolean casRunState(int expect, int update) {
    return RUN_STATE.compareAndSet(this, expect, update);
  }
}

/** Keeps the hot fields off the cache lines of the cold fields and whatever follows the pool. */
abstract class AffinityPoolPad1 extends AffinityPoolHotFields {
  long p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;

  AffinityPoolPad1(int parallelism, boolean workStealing, QueueSelector selector) {
    super(parallelism, workStealing, selector);
  }
}

/**
 * An {@link java.util.concurrent.ExecutorService} with one worker thread per <em>stripe</em>,
 * each stripe owning a bounded lock-free queue, that keeps a task on the thread it last ran on.
 * Built for actor mailboxes: a mailbox is rescheduled over and over, and running it on the same
 * thread keeps its actor's state in that core's caches and an actor ping-pong pair on one thread.
 *
 * <pre>{@code
 * AffinityPool pool = AffinityPool.builder()
 *     .parallelism(Parallelism.scaled(1, 1.0, 64))
 *     .threadFactory(new NamedThreadFactory("demo-dispatcher", false))
 *     .build();
 * }</pre>
 *
 * <h2>Placement</h2>
 * Each {@link #execute(Runnable)} asks the {@link QueueSelector} for a stripe. The default
 * ({@link QueueSelector#affinityFirst(int)}) decides as follows:
 * <ol>
 *   <li>An {@link Affine} task submitted by one of this pool's workers goes to that worker's
 *       stripe and is bound to it (the "local push" of fork-join): the receiver of a message runs
 *       where the message was just written, an actor ping-pong pair stays on one thread, and a
 *       pair that a steal split is re-united by its next message. Without work stealing, a
 *       bound task never moves (strict affinity) and only an unbound one is bound this way.
 *   <li>An {@link Affine} task bound to a stripe (hint in {@code [0, parallelism)}) and submitted
 *       from outside the pool goes to that stripe: where it last ran.
 *   <li>An unbound {@link Affine} task submitted from outside the pool is spread, round-robin
 *       while fewer than {@code fairDistributionThreshold} tasks have been spread this way, then
 *       by a well-mixed hash of {@link System#identityHashCode}. It is <em>not</em> bound, so the
 *       first worker that submits it binds it to where it actually runs.
 *   <li>A plain {@link Runnable} submitted by one of this pool's workers goes to that worker's
 *       stripe (a task resubmitting itself stays where it runs, also after a steal moved it).
 *       Submitted from outside, it keeps the stripe it was first given if it is among the first
 *       {@code fairDistributionThreshold} spread ones (a bounded, weak, identity cache; millions of
 *       distinct runnables do not grow it); otherwise it is spread as above (round-robin while
 *       tickets last, then hashed, which is stable per object anyway).
 * </ol>
 * A worker finds out whether the submitting thread is one of its peers with a probe of a small
 * table keyed by thread id (no {@code ThreadLocal}: its lookup cost more than the rest of a local
 * submission).
 * The hint is racy by design; see {@link Affine} for why that is benign.
 *
 * <p>Next-task slot: a task that a worker submits to its own stripe while running another task
 * (an actor sending to its partner on the same thread) goes into that worker's one-task slot
 * instead of a queue, if the slot is free and the task is not the running task resubmitting
 * itself; the worker runs it right after the current task. A slot is one release store to put and
 * one exchange to take, where the queue costs two CASes and index traffic; it is what keeps a
 * ping-pong pair on one thread cheaper than a fork-join deque. At most 32 slot tasks run in a row
 * before the queue gets a turn, so a pair cannot starve the other mailboxes of its stripe, and a
 * thief may take a slot task from a worker that is stuck (see below), so a task that sends and
 * then runs long does not hold its receiver back.
 *
 * <p>Re-run: a task that resubmits itself from its worker while that stripe's queues are empty
 * (a mailbox with more messages than one {@code throughput} batch, alone on its thread) is run
 * again without a trip through the queue; if anything is queued it goes behind it, so the
 * throughput setting keeps its meaning.
 *
 * <p>Local ring: what a worker submits to its own stripe and neither the slot nor a re-run takes
 * (a mailbox rescheduling itself behind others, a second actor woken by the running one) goes
 * into a ring that only that worker fills (JCTools' {@code SpmcAtomicArrayQueue}, as big as the
 * shared queue): an offer is two ordered stores instead of the shared queue's CAS. It is used
 * only while the shared queue is empty, so its tasks are always older than the shared queue's,
 * and the owner polls it first: the stripe stays first-in first-out. The owner and thieves poll it
 * like the shared queue (a CAS claims each task). Otherwise, or if the ring is full, the task
 * goes to the shared queue.
 *
 * <h2>Work stealing</h2>
 * A worker that finds its own queues empty takes single tasks from the most loaded other stripe
 * (the one with the longest queue, if it holds at least two tasks, so that a stripe whose worker
 * is about to poll its one task, the ping-pong case, is left alone; a single task is taken only
 * from a worker that has been running one task for over a millisecond; a task in the worker's
 * next-task slot counts as such a single task) and rebinds a stolen
 * {@link Affine} task to itself, so the task's future submissions follow it. A busy worker whose
 * queue still holds such a backlog after a poll wakes one idle peer to come and steal. A task is
 * never run twice and never lost: removal from a queue is exclusive.
 *
 * <p>Steals must pay. A steal pays if the stolen task resubmits itself on the thief (a stream of
 * work: a mailbox with more messages than one turn) or keeps the thief busy for 10 µs. A thief
 * whose steal did not pay (it took an actor with one message, which answered an actor on the
 * victim's thread and was done) holds off robbing busy peers for 20 µs, doubling with each further
 * unpaid steal up to 1 ms, and busy peers do not wake it to help meanwhile; a peer stuck in a long
 * task is still robbed. Without this, many actors talking to one hub actor were stolen one by one,
 * every answer crossed threads, and two workers ran Chameneos 2-4x slower than one.
 *
 * <p>Queue choice: stealing needs several consumers per queue, and JCTools' MPSC queues allow
 * exactly one. The alternatives were an MPSC queue with a consumer-claim lock (owner and thief
 * CAS a claim word around each poll) or an MPMC queue. We use JCTools' {@code
 * MpmcAtomicArrayQueue} (the field-updater variant, no {@code sun.misc.Unsafe}): it is lock-free
 * for the owner (a claim lock held by a preempted thief would stall the owner, which matters on
 * small machines) and needs no extra word. MPMC costs a few nanoseconds more per local push but
 * wins when producer and consumer are different threads ({@code QueueChoiceMeasurement} in the
 * test sources; the figures are in {@code bench/README.md}, "Queue choice of the affinity pool").
 * Each worker also has its local ring (above), whose one producer makes the offer cheap.
 * Spilled tasks live in a
 * per-stripe {@link java.util.concurrent.ConcurrentLinkedQueue}, polled every 32nd poll and
 * whenever the bounded queue is empty, so they cannot starve.
 *
 * <h2>Idling and wake-up</h2>
 * An idle worker follows its {@link IdleStrategy} (by default
 * {@link IdleStrategies#forCpuLevel(int)} of {@code idleCpuLevel}): spin, then yield, then park.
 * No wake-up is lost, by a Dekker-style handshake on a per-worker state word: the worker stores
 * IDLE (a volatile write), then re-checks its queues, and only then idles; a producer places the
 * task (a CAS, i.e. a volatile write), then loads the worker's state (a volatile read) and
 * unparks the worker only if it is IDLE (CAS IDLE to WOKEN first, so a burst of producers
 * unparks once). In the sequentially consistent order of these accesses either the worker's
 * re-check sees the task or the producer sees IDLE. The producer's common case is one volatile
 * read. An unpark that comes before the park leaves a permit, so the park returns at once: a
 * worker can therefore park with no deadline at all.
 *
 * <p>And it does: an idle worker whose strategy has stopped spinning and yielding parks until it
 * is woken ({@link IdleStrategy#idleUntilWoken()}). Stealing is driven from the side that has
 * work: a busy worker whose queue still holds a backlog wakes an idle peer to steal (above), and
 * the one case that no busy worker can report, a peer stuck in a long task with work queued
 * behind it, is covered by one <em>lookout</em>: while some worker runs, one idle worker parks with
 * the strategy's periods (up to its {@code maxPark}) and looks around after each. A worker that
 * starts running wakes an idle peer to be the lookout if there is none; the lookout gives the
 * role back after 50 ms in which no peer ran a task. So a pool with nothing to do wakes no
 * thread, and a pool whose workers are all busy has no lookout either. The handshake that keeps
 * a lookout present while any worker runs is argued in {@code AffinityWorker#idlesWithDeadline}.
 *
 * <h2>Full queues</h2>
 * {@code taskQueueSize} bounds each stripe's queue; the {@link RejectionHandler} decides what a
 * full queue does. The default, {@link RejectionHandler#lossless()}, tries the other stripes,
 * then runs the task on the caller if the caller is not one of this pool's workers, else spills it
 * into the stripe's unbounded overflow queue. It never loses or blocks.
 *
 * <h2>Failures</h2>
 * A task that throws never kills its worker: the {@link Throwable} is counted ({@link
 * #errorCount()}) and passed to the error handler (by default the running thread's {@link
 * Thread.UncaughtExceptionHandler}), and the worker loop goes on. An error handler that throws is
 * ignored. Between tasks a worker clears its interrupt status unless the pool is stopping.
 *
 * <h2>Shutdown</h2>
 * {@link #shutdown()} rejects new tasks and lets the workers run what is queued, then exit;
 * {@link #shutdownNow()} drains and returns the queued tasks, interrupts the workers and lets them
 * exit after their current task. A submission that passed the state check just before shutdown
 * and lands on a stripe whose worker has already exited is run by the submitting thread (it was
 * accepted); so is, after {@code shutdownNow}, a late one that the drain missed. Either way each
 * task runs at most once and none is silently dropped.
 *
 * <h2>Ordering concerns</h2>
 * The subtle interleavings, each argued in a comment at its access and each checked by a jcstress
 * test in the {@code troupe-jcstress} module (named here), which was also run against a mutant that
 * breaks it: (1) the wake-up handshake (producer offer + state load vs. worker state store + queue
 * re-check: no lost wake-up; {@code WakeUpHandshakeTest}); (2) shutdown vs. a racing submission
 * (EXITED exchange + final sweep vs. offer + state load: every accepted task runs exactly once;
 * {@code ExitSweepTest}); (3) owner poll vs. thief steal (exclusive by the queues'
 * consumer-index CAS; {@code StealExclusiveTest}, {@code StealExclusiveLocalRingTest}); (4) the
 * IDLE to WOKEN CAS between racing wakers (one unpark, idle count consistent; {@code
 * WakeOnceTest}); (5) the lookout handshake (an idle worker deciding to park until woken vs. a
 * peer starting to run, and the lookout giving the role back vs. a peer starting to run: a
 * lookout is present or being woken whenever a worker runs; {@code LookoutSummonTest}, {@code
 * LookoutHandBackTest}); and the selector's round-robin tickets ({@code
 * RoundRobinPlacementTest}).
 *
 * <p>Thread-safe. Counters are approximate while tasks run (opaque reads).
 *
 * <p>Why one file (over 700 lines): the padded layers above and the pool below are one object
 * (HotSpot lays out a superclass's fields first, so the padding must be superclasses of the pool in
 * this compilation unit), and the rest is the submission path, shutdown and introspection of that
 * object; the worker's loop lives in {@code AffinityWorker}, placement in {@link QueueSelector}.
 */
public final class AffinityPool extends AffinityPoolPad1 {

  static final int RUNNING = 0;
  static final int SHUTDOWN = 1;
  static final int STOP = 2;

  /** Largest supported parallelism. */
  public static final int MAX_PARALLELISM = 0x7FFF;

  /** Largest supported {@code taskQueueSize}. */
  public static final int MAX_TASK_QUEUE_SIZE = 1 << 30;

  private static final AtomicInteger POOL_IDS = new AtomicInteger();

  private final int id = POOL_IDS.incrementAndGet();
  /** The workers by stripe, for the cold paths (the hot ones use {@link #stripe}). */
  final AffinityWorker[] workers;
  /** The workers in an open-addressing table keyed by thread id (see {@link #currentWorker}). */
  private final AffinityWorker[] workersByThread;
  private final RejectionHandler rejectionHandler;
  private final Consumer<? super Throwable> errorHandler;
  /** Called by a worker that leaves IDLE for work, or null (see {@link Builder#wakeListener}). */
  final Runnable wakeListener;
  private final LongAdder errors = new LongAdder();
  private final CountDownLatch terminated;

  private AffinityPool(Builder b, Supplier<? extends IdleStrategy> idle, QueueSelector selector) {
    super(b.parallelism, b.workStealing, selector);
    int n = b.parallelism;
    this.rejectionHandler = b.rejectionHandler;
    this.errorHandler = b.errorHandler;
    this.wakeListener = b.wakeListener;
    this.terminated = new CountDownLatch(n);
    this.workers = new AffinityWorker[n];
    ThreadFactory factory =
        b.threadFactory != null
            ? b.threadFactory
            : new NamedThreadFactory("troupe-affinity-pool-" + id, false);
    for (int i = 0; i < n; i++) {
      AffinityWorker w = new AffinityWorker(this, i, b.taskQueueSize, idle);
      Thread t = factory.newThread(w);
      if (t == null) {
        throw new IllegalStateException("threadFactory " + factory + " returned null");
      }
      w.thread = t; // frozen with the final `workers` array at the end of this constructor
      workers[i] = w;
      paddedStripes[TABLE_PAD + i] = w;
    }
    this.workersByThread = indexByThread(workers);
  }

  /**
   * Returns a builder with the defaults: parallelism = available processors, taskQueueSize 512,
   * idleCpuLevel 5, fairDistributionThreshold 128, work stealing on, non-daemon threads named
   * {@code troupe-affinity-pool-<pool>-<n>}, {@link RejectionHandler#lossless()}, the default
   * selector, and the running thread's uncaught-exception handler as error handler.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  // ------------------------------------------------------------------ ExecutorService

  /**
   * Queues {@code task} on the stripe chosen by the queue selector (see the class documentation).
   *
   * @throws RejectedExecutionException if the pool is shut down, or by the rejection handler
   * @throws NullPointerException if {@code task} is null
   * @throws IllegalStateException if the queue selector returns an invalid stripe
   */
  @Override
  public void execute(Runnable task) {
    if (task == null) {
      throw new NullPointerException("task");
    }
    if (lvRunState() != RUNNING) {
      throw new RejectedExecutionException(this + " is shut down; task " + task + " rejected");
    }
    AffinityFirstSelector fast = defaultSelector;
    int stripe = fast != null ? fast.select(task, this) : selector.select(task, this);
    if (stripe < 0 || stripe >= parallelism) {
      throw new IllegalStateException(
          "queue selector " + selector + " returned stripe " + stripe + ", expected 0.."
              + (parallelism - 1));
    }
    AffinityWorker w = stripe(stripe);
    if (w.thread == Thread.currentThread() && w.offerOwn(task)) {
      return; // a local submission: the slot, or the worker's own ring
    }
    if (w.queue.offer(task)) {
      w.signal();
    } else {
      rejectionHandler.rejected(task, stripe, this);
    }
  }

  @Override
  public void shutdown() {
    if (casRunState(RUNNING, SHUTDOWN)) {
      for (AffinityWorker w : workers) {
        LockSupport.unpark(w.thread); // the permit sticks: a worker about to park returns at once
      }
    }
  }

  /**
   * Stops the pool: rejects new tasks, removes and returns the tasks still queued, interrupts the
   * workers, which exit after their current task.
   *
   * @return the tasks that were queued and will not be run by the pool
   */
  @Override
  public List<Runnable> shutdownNow() {
    int s;
    while ((s = lvRunState()) < STOP && !casRunState(s, STOP)) {
      Thread.onSpinWait();
    }
    List<Runnable> never = new ArrayList<>();
    for (AffinityWorker w : workers) {
      drainTo(w, never);
    }
    for (AffinityWorker w : workers) {
      w.thread.interrupt();
      LockSupport.unpark(w.thread);
    }
    return never;
  }

  @Override
  public boolean isShutdown() {
    return lvRunState() != RUNNING;
  }

  @Override
  public boolean isTerminated() {
    return terminated.getCount() == 0;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return terminated.await(timeout, unit);
  }

  // ------------------------------------------------------------------ public introspection

  /**
   * Returns the number of stripes (worker threads).
   *
   * @return the parallelism
   */
  public int parallelism() {
    return parallelism;
  }

  /**
   * Returns the stripe of the calling thread if it is one of this pool's workers, else -1.
   *
   * @return the caller's stripe index, or -1
   */
  public int currentWorkerIndex() {
    AffinityWorker w = currentWorker();
    return w == null ? -1 : w.index;
  }

  /**
   * Returns how many tasks the workers have run (including stolen ones and ones that threw).
   *
   * @return the approximate total
   */
  public long completedTaskCount() {
    long sum = 0;
    for (AffinityWorker w : workers) {
      sum += w.loTasksRun();
    }
    return sum;
  }

  /**
   * Returns how many tasks the worker of {@code stripe} has run.
   *
   * @param stripe the stripe index
   * @return the approximate count
   * @throws IndexOutOfBoundsException if {@code stripe} is not a stripe
   */
  public long completedTaskCount(int stripe) {
    return workers[Objects.checkIndex(stripe, workers.length)].loTasksRun();
  }

  /**
   * Returns the task the worker of {@code stripe} is running now, or null between tasks: a racy
   * snapshot for monitoring (for example a watchdog that names what a stuck thread runs).
   *
   * @param stripe the stripe index
   * @return the running task, or null
   * @throws IndexOutOfBoundsException if {@code stripe} is not a stripe
   */
  public Runnable runningTask(int stripe) {
    return workers[Objects.checkIndex(stripe, workers.length)].loCurrent();
  }

  /**
   * Returns whether the worker of {@code stripe} is idle (out of work, maybe parked).
   *
   * @param stripe the stripe index
   * @return whether it is idle now
   * @throws IndexOutOfBoundsException if {@code stripe} is not a stripe
   */
  public boolean isIdle(int stripe) {
    return workers[Objects.checkIndex(stripe, workers.length)].isIdle();
  }

  /**
   * Returns the thread of the worker of {@code stripe}, for monitoring (its name, its stack).
   *
   * @param stripe the stripe index
   * @return the thread
   * @throws IndexOutOfBoundsException if {@code stripe} is not a stripe
   */
  public Thread workerThread(int stripe) {
    return workers[Objects.checkIndex(stripe, workers.length)].thread;
  }

  /**
   * Returns how many tasks the workers have stolen from other stripes.
   *
   * @return the approximate total
   */
  public long stolenTaskCount() {
    long sum = 0;
    for (AffinityWorker w : workers) {
      sum += w.loTasksStolen();
    }
    return sum;
  }

  /**
   * Returns how many tasks the worker of {@code stripe} has stolen.
   *
   * @param stripe the stripe index
   * @return the approximate count
   * @throws IndexOutOfBoundsException if {@code stripe} is not a stripe
   */
  public long stolenTaskCount(int stripe) {
    return workers[Objects.checkIndex(stripe, workers.length)].loTasksStolen();
  }

  /**
   * Returns how many tasks threw (on workers or on submitting threads).
   *
   * @return the count
   */
  public long errorCount() {
    return errors.sum();
  }

  @Override
  public String toString() {
    int s = lvRunState();
    String state =
        s == RUNNING ? "running" : isTerminated() ? "terminated" : s == SHUTDOWN ? "shutdown" : "stop";
    return "AffinityPool-" + id + "[" + state + ", parallelism=" + workers.length + "]";
  }

  // ------------------------------------------------------------------ package-private engine

  /**
   * Returns the calling thread's worker if it is one of this pool's, else null. A probe of a small
   * table keyed by thread id (ids are unique for the JVM's lifetime and never reused), built once
   * before the threads start: a field load and a compare or two, where a {@code ThreadLocal}
   * lookup measured as 40 % of the cost of a task resubmitting itself.
   */
  AffinityWorker currentWorker() {
    Thread t = Thread.currentThread();
    AffinityWorker[] table = workersByThread;
    int mask = table.length - 2 * TABLE_PAD - 1;
    for (int i = threadSlot(t, mask); ; i = (i + 1) & mask) {
      AffinityWorker w = table[TABLE_PAD + i];
      if (w == null || w.thread == t) {
        return w;
      }
    }
  }

  @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+; getId() is the same final id
  private static int threadSlot(Thread t, int mask) {
    return (int) t.getId() & mask;
  }

  private static AffinityWorker[] indexByThread(AffinityWorker[] workers) {
    // At most a quarter full, so that a probe from a non-worker thread ends at an empty slot soon.
    int size = Integer.highestOneBit(workers.length * 4 - 1) << 1; // a power of two >= 4n
    AffinityWorker[] table = new AffinityWorker[size + 2 * TABLE_PAD];
    int mask = size - 1;
    for (AffinityWorker w : workers) {
      int i = threadSlot(w.thread, mask);
      while (table[TABLE_PAD + i] != null) {
        i = (i + 1) & mask;
      }
      table[TABLE_PAD + i] = w;
    }
    return table;
  }


  /** Offers to the stripes after {@code stripe}, in order; true if one took the task. */
  boolean offerToOtherStripe(Runnable task, int stripe) {
    AffinityWorker[] ws = workers;
    for (int k = 1; k < ws.length; k++) {
      AffinityWorker w = ws[(stripe + k) % ws.length];
      if (w.queue.offer(task)) {
        w.signal();
        return true;
      }
    }
    return false;
  }

  /** Puts the task into the unbounded overflow queue of {@code stripe} and signals its worker. */
  void spill(int stripe, Runnable task) {
    AffinityWorker w = workers[Objects.checkIndex(stripe, workers.length)];
    w.overflow.add(task); // CAS on the tail: a volatile write, as the handshake requires
    w.signal();
  }

  /** Runs the task on the calling thread; a failure goes to the error handler. */
  void runOnCaller(Runnable task) {
    try {
      task.run();
    } catch (Throwable t) {
      reportError(t);
    }
  }

  /** A submitter saw its stripe's worker EXITED: run whatever is left there, on this thread. */
  void runLeftovers(AffinityWorker w) {
    Runnable task;
    while ((task = w.queue.poll()) != null
        || (task = w.local.poll()) != null
        || (task = w.overflow.poll()) != null
        || (task = w.xchgNextToNull()) != null) {
      runOnCaller(task);
    }
  }

  void reportError(Throwable t) {
    errors.increment();
    try {
      errorHandler.accept(t);
    } catch (Throwable ignored) {
      // An error handler must not kill the worker either; its own failure is dropped.
    }
  }

  /**
   * Wakes one IDLE peer of {@code from} that is not holding off stealing, so it can steal from the
   * busy stripe; false if there was none.
   */
  boolean wakeOneIdle(int from) {
    AffinityWorker[] ws = workers;
    long now = 0;
    for (int k = 1; k < ws.length; k++) {
      AffinityWorker w = ws[(from + k) % ws.length];
      if (w.isIdle()) {
        if (now == 0) {
          now = System.nanoTime();
        }
        if (!w.holdsSteals(now) && w.wake()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Wakes one IDLE peer of {@code from}, whatever its steal hold: the worker {@code from} has just
   * started running and the pool has no lookout, so an idle peer must come and decide whether to
   * take the role (see {@link AffinityWorker#idlesWithDeadline}). False if none was IDLE: then
   * every idle worker is awake and decides by itself.
   */
  boolean wakeAnyIdle(int from) {
    AffinityWorker[] ws = workers;
    for (int k = 1; k < ws.length; k++) {
      AffinityWorker w = ws[(from + k) % ws.length];
      if (w.isIdle() && w.wake()) {
        return true;
      }
    }
    return false;
  }

  void workerExited() {
    terminated.countDown();
  }

  private static void drainTo(AffinityWorker w, List<Runnable> out) {
    Runnable task;
    while ((task = w.queue.poll()) != null
        || (task = w.local.poll()) != null
        || (task = w.overflow.poll()) != null
        || (task = w.xchgNextToNull()) != null) {
      out.add(task);
    }
  }

  private void start() {
    int started = 0;
    try {
      for (AffinityWorker w : workers) {
        w.thread.start();
        started++;
      }
    } catch (RuntimeException | Error e) {
      shutdownNow();
      for (int i = started; i < workers.length; i++) {
        terminated.countDown(); // never started, never exits
      }
      throw e;
    }
  }

  // ------------------------------------------------------------------ builder

  /**
   * Builds an {@link AffinityPool}. Every setter validates its argument at the call (a clear
   * {@link IllegalArgumentException} naming it; {@link NullPointerException} for null).
   */
  public static final class Builder {
    private int parallelism = Runtime.getRuntime().availableProcessors();
    private int taskQueueSize = 512;
    private int idleCpuLevel = IdleStrategies.DEFAULT_CPU_LEVEL;
    private Supplier<? extends IdleStrategy> idleStrategy;
    private int fairDistributionThreshold = 128;
    private boolean workStealing = true;
    private ThreadFactory threadFactory;
    private RejectionHandler rejectionHandler = RejectionHandler.lossless();
    private QueueSelector queueSelector;
    private Consumer<? super Throwable> errorHandler = Builder::toUncaughtExceptionHandler;
    private Runnable wakeListener;

    private Builder() {}

    /**
     * Sets the number of stripes, each with one worker thread.
     *
     * @param parallelism {@code 1..}{@link #MAX_PARALLELISM}; default: available processors
     * @return this builder
     */
    public Builder parallelism(int parallelism) {
      if (parallelism < 1 || parallelism > MAX_PARALLELISM) {
        throw new IllegalArgumentException(
            "parallelism must be between 1 and " + MAX_PARALLELISM + ", was " + parallelism);
      }
      this.parallelism = parallelism;
      return this;
    }

    /**
     * Sets the bound of each stripe's queue, rounded up to a power of two (each worker's local
     * ring, which holds only what the worker submits to itself, has the same size).
     *
     * @param taskQueueSize {@code 2..}{@link #MAX_TASK_QUEUE_SIZE}; default 512
     * @return this builder
     */
    public Builder taskQueueSize(int taskQueueSize) {
      if (taskQueueSize < 2 || taskQueueSize > MAX_TASK_QUEUE_SIZE) {
        throw new IllegalArgumentException(
            "taskQueueSize must be between 2 and " + MAX_TASK_QUEUE_SIZE + ", was "
                + taskQueueSize);
      }
      this.taskQueueSize = taskQueueSize;
      return this;
    }

    /**
     * Sets the idle-cpu-level, mapped to an idle strategy by
     * {@link IdleStrategies#forCpuLevel(int)}. Replaces an earlier {@link #idleStrategy}.
     *
     * @param idleCpuLevel 1 (save CPU) .. 10 (lowest latency); default 5
     * @return this builder
     */
    public Builder idleCpuLevel(int idleCpuLevel) {
      this.idleCpuLevel = IdleStrategies.checkLevel("idleCpuLevel", idleCpuLevel);
      this.idleStrategy = null;
      return this;
    }

    /**
     * Sets a custom idle strategy instead of the idle-cpu-level; called once per worker, on the
     * worker's thread, and must return a strategy for that thread alone.
     *
     * @param idleStrategy the supplier
     * @return this builder
     */
    public Builder idleStrategy(Supplier<? extends IdleStrategy> idleStrategy) {
      this.idleStrategy = Objects.requireNonNull(idleStrategy, "idleStrategy must not be null");
      return this;
    }

    /**
     * Sets how many distinct externally submitted tasks the default selector spreads round-robin
     * before it switches to hashing. Ignored with a custom {@link #queueSelector}.
     *
     * @param fairDistributionThreshold {@code 0..1_048_576}; default 128
     * @return this builder
     */
    public Builder fairDistributionThreshold(int fairDistributionThreshold) {
      if (fairDistributionThreshold < 0
          || fairDistributionThreshold > AffinityFirstSelector.MAX_THRESHOLD) {
        throw new IllegalArgumentException(
            "fairDistributionThreshold must be between 0 and "
                + AffinityFirstSelector.MAX_THRESHOLD + ", was " + fairDistributionThreshold);
      }
      this.fairDistributionThreshold = fairDistributionThreshold;
      return this;
    }

    /**
     * Enables or disables work stealing. Without it a task runs only on the stripe it was placed
     * on (strict affinity, as long as its worker is busy its queue waits); with it (the default)
     * idle workers take tasks from loaded stripes, including a single task from a worker that has
     * not finished a task for over a millisecond (busy in a long task, or descheduled).
     *
     * @param workStealing whether idle workers steal; default {@code true}
     * @return this builder
     */
    public Builder workStealing(boolean workStealing) {
      this.workStealing = workStealing;
      return this;
    }

    /**
     * Sets the factory of the worker threads; it must return a new, unstarted thread.
     *
     * @param threadFactory the factory
     * @return this builder
     */
    public Builder threadFactory(ThreadFactory threadFactory) {
      this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory must not be null");
      return this;
    }

    /**
     * Sets what a full stripe queue does with a task.
     *
     * @param rejectionHandler the handler; default {@link RejectionHandler#lossless()}
     * @return this builder
     */
    public Builder rejectionHandler(RejectionHandler rejectionHandler) {
      this.rejectionHandler =
          Objects.requireNonNull(rejectionHandler, "rejectionHandler must not be null");
      return this;
    }

    /**
     * Sets a custom queue selector. It must be thread-safe; a stateful one belongs to one pool.
     *
     * @param queueSelector the selector; default {@link QueueSelector#affinityFirst(int)}
     * @return this builder
     */
    public Builder queueSelector(QueueSelector queueSelector) {
      this.queueSelector = Objects.requireNonNull(queueSelector, "queueSelector must not be null");
      return this;
    }

    /**
     * Sets the handler of {@link Throwable}s thrown by tasks, called on the thread that ran the
     * task.
     *
     * @param errorHandler the handler; default: the running thread's uncaught-exception handler
     * @return this builder
     */
    public Builder errorHandler(Consumer<? super Throwable> errorHandler) {
      this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler must not be null");
      return this;
    }

    /**
     * Sets a listener that a worker calls, on its own thread, each time it leaves the idle state
     * for work (after {@link AffinityPool#isIdle(int)} turned false for it). It runs on the path
     * of a wake-up, never per task; it must be quick and must not throw. With it, a monitor can
     * sleep while the pool is idle and start watching when work arrives: a monitor that publishes
     * "not watching" (a volatile write) and then finds every worker idle may stop, because a worker
     * that leaves idle afterwards publishes that first (a volatile exchange) and calls the
     * listener after.
     *
     * @param wakeListener the listener; default none
     * @return this builder
     */
    public Builder wakeListener(Runnable wakeListener) {
      this.wakeListener = Objects.requireNonNull(wakeListener, "wakeListener must not be null");
      return this;
    }

    /**
     * Creates the pool and starts its worker threads.
     *
     * @return the running pool
     * @throws IllegalStateException if the thread factory returns null
     */
    public AffinityPool build() {
      AffinityPool pool = buildUnstarted();
      pool.start();
      return pool;
    }

    /**
     * Builds the pool without starting its threads: for jcstress tests that drive the worker's
     * protocol methods from their own threads.
     */
    AffinityPool buildUnstarted() {
      int level = idleCpuLevel;
      Supplier<? extends IdleStrategy> idle =
          idleStrategy != null ? idleStrategy : () -> IdleStrategies.forCpuLevel(level);
      QueueSelector selector =
          queueSelector != null
              ? queueSelector
              : QueueSelector.affinityFirst(fairDistributionThreshold);
      return new AffinityPool(this, idle, selector);
    }

    private static void toUncaughtExceptionHandler(Throwable t) {
      Thread current = Thread.currentThread();
      Thread.UncaughtExceptionHandler h = current.getUncaughtExceptionHandler();
      if (h != null) {
        h.uncaughtException(current, t);
      }
    }
  }
}
