package dev.troupe.actor.internal.dispatch;

import dev.troupe.executors.ExecutorFactories;
import dev.troupe.executors.NamedThreadFactory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Owns a thread per actor, and the hand-off of each actor's mailbox to its thread.
 *
 * <p>This is {@code type = PinnedDispatcher}: every actor gets a dedicated thread, named {@code
 * <system>-<dispatcher-id>-<n>}, started when the actor's mailbox is first scheduled and ended
 * when the actor stops (or the system terminates). For actors that block or need a thread of
 * their own; {@code throughput} makes no difference, as nobody else waits for the thread. The
 * section's executor keys are not used.
 *
 * <p>{@link #executor()} (futures, pipes and scheduled sends of these actors) is a separate single
 * thread, started on first use and ended after a second without tasks.
 */
public final class PinnedDispatcher extends Dispatcher {

  /** Config value of this kind. */
  public static final String TYPE = "PinnedDispatcher";

  private final NamedThreadFactory threads;
  private final Thread.UncaughtExceptionHandler onError;
  private final Set<PinnedThread> live = ConcurrentHashMap.newKeySet();
  private volatile boolean shutdown; // volatile: threads must see it when woken to exit
  private volatile ExecutorService tasks; // created on first use, under `this`

  PinnedDispatcher(
      DispatcherSettings settings,
      String threadNamePrefix,
      boolean daemon,
      Thread.UncaughtExceptionHandler onError) {
    super(settings, null);
    this.threads = new NamedThreadFactory(threadNamePrefix, daemon);
    this.onError = onError;
  }

  /** Makes the actor's thread and its mailbox together: the mailbox's kind is its thread. */
  @Override
  public Mailbox newMailbox(MailboxType type) {
    return new PinnedThread(this, type.newQueue()).mailbox;
  }

  /** Every mailbox of this dispatcher was made by {@link #newMailbox}: its kind is its thread. */
  @Override
  void execute(Mailbox mailbox) {
    ((PinnedThread) mailbox.kind()).submit();
  }

  @Override
  public ExecutorService executor() {
    ExecutorService t = tasks;
    if (t == null) {
      synchronized (this) {
        t = tasks;
        if (t == null) {
          // core 0, max 1, unbounded queue: one thread while there are tasks, gone a second later
          t = ExecutorFactories.threadPool(0, 1, Duration.ofSeconds(1), -1, threads);
          if (shutdown) {
            t.shutdown();
          }
          tasks = t;
        }
      }
    }
    return t;
  }

  @Override
  public void shutdown() {
    shutdown = true;
    for (PinnedThread p : live) {
      LockSupport.unpark(p.thread);
    }
    synchronized (this) {
      if (tasks != null) {
        tasks.shutdown();
      }
    }
  }

  @Override
  public boolean awaitTermination(long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    for (PinnedThread p : live) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        return false;
      }
      p.thread.join(left);
    }
    ExecutorService t = tasks;
    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
    return live.isEmpty() && (t == null || t.awaitTermination(Math.max(0, left), TimeUnit.MILLISECONDS));
  }

  /** @return threads of this dispatcher's actors that have not exited (for tests) */
  int liveThreads() {
    return live.size();
  }

  /**
   * One actor's thread and the hand-off of its mailbox to it; also the mailbox's kind (a queue of
   * its own, see {@link MailboxKind.OwnQueue}). The runtime hands a mailbox over at most once
   * until its run starts (the SCHEDULED bit), so one state word is the whole queue:
   *
   * <pre>
   *   NEW ──submit──▶ PENDING ──thread──▶ RUNNING ──run ends──▶ IDLE ──(closed or shutdown)──▶ EXITED
   *                      ▲  submit (during the run)  │              │
   *                      └───────────────────────────┴──── submit ──┘ (and unpark)
   * </pre>
   *
   * A submitter that finds EXITED runs the mailbox on its own thread (a closed mailbox only drains
   * late messages to dead letters) or, if the dispatcher was shut down, releases it.
   */
  static final class PinnedThread extends MailboxKind.OwnQueue implements Runnable {
    static final int NEW = 0;
    static final int IDLE = 1;
    static final int PENDING = 2;
    static final int RUNNING = 3;
    static final int EXITED = 4;

    private static final VarHandle STATE;

    static {
      try {
        STATE = MethodHandles.lookup().findVarHandle(PinnedThread.class, "state", int.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private final PinnedDispatcher dispatcher;
    final Mailbox mailbox;
    final Thread thread;
    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    /**
     * Makes the thread (not started) and its mailbox; neither is reachable by another thread
     * before the mailbox is published with its actor's ref.
     */
    PinnedThread(PinnedDispatcher dispatcher, MessageQueue queue) {
      this.dispatcher = dispatcher;
      this.mailbox = new Mailbox(queue, dispatcher, this);
      this.thread = dispatcher.threads.newThread(this);
    }

    /** Volatile load: the hand-off must see the thread's latest transition. */
    private int lvState() {
      return (int) STATE.getVolatile(this);
    }

    /** CAS (volatile): submitter and thread race on RUNNING and IDLE. */
    private boolean casState(int expect, int update) {
      return STATE.compareAndSet(this, expect, update);
    }

    /** Any thread: the mailbox was just marked SCHEDULED; make the thread run it. */
    void submit() {
      for (; ; ) {
        int s = lvState();
        switch (s) {
          case NEW -> {
            if (casState(NEW, PENDING)) {
              dispatcher.live.add(this);
              thread.start(); // Thread.start orders everything before it with the new thread
              return;
            }
          }
          case IDLE -> {
            if (casState(IDLE, PENDING)) {
              LockSupport.unpark(thread); // after the CAS: a park that follows returns at once
              return;
            }
          }
          case RUNNING -> {
            if (casState(RUNNING, PENDING)) {
              return; // the thread re-reads the state after its run
            }
          }
          case PENDING -> {
            return; // cannot happen (one submission at a time); nothing to add
          }
          default -> {
            if (dispatcher.shutdown && !mailbox.isClosed()) {
              mailbox.rejected(); // terminated: like a shut-down executor
            } else {
              CallingThreadDispatcher.runOnCaller(mailbox, dispatcher.onError);
            }
            return;
          }
        }
      }
    }

    /**
     * Turns of the state machine per call of {@link #turns}. The thread returns to {@link #run}
     * this often so that its long-lived frame holds no hot call site: see the worker loop of the
     * affinity pool (AffinityWorker#loop) for what a frame running discarded JIT code costs.
     */
    static final int TURNS_PER_CALL = 1024;

    @Override
    public void run() {
      try {
        while (turns()) {
          // all the work is in turns
        }
      } finally {
        dispatcher.live.remove(this);
      }
    }

    /** Up to {@link #TURNS_PER_CALL} turns; returns false when the thread is to exit. */
    private boolean turns() {
      for (int i = 0; i < TURNS_PER_CALL; i++) {
        int s = lvState();
        if (s == PENDING) {
          casState(PENDING, RUNNING); // only this thread leaves PENDING: cannot fail
          try {
            mailbox.run();
          } catch (Throwable t) {
            dispatcher.onError.uncaughtException(thread, t);
          }
        } else if (s == RUNNING) {
          casState(RUNNING, IDLE); // a failed CAS means a submission came: loop to run it
        } else if (mailbox.isClosed() || dispatcher.shutdown) {
          if (casState(IDLE, EXITED)) {
            return false; // a submission racing with this CAS either won (we loop) or sees EXITED
          }
        } else {
          Thread.interrupted(); // a stray interrupt would turn park into a busy loop
          LockSupport.park(this); // spurious returns only re-read the state
        }
      }
      return true;
    }
  }
}
