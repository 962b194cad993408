package dev.troupe.actor.internal.dispatch;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code type = CallingThreadDispatcher}, <b>for tests</b>: a mailbox runs on the thread that
 * scheduled it (the thread calling {@code tell}), so a test observes the effects of a message as
 * soon as {@code tell} returns, deterministically, without any dispatcher thread.
 *
 * <p>Sends made while a mailbox runs on this thread (an actor telling another actor or itself)
 * are not run recursively: the scheduled mailbox is queued on a per-thread trampoline and runs
 * after the current message, in the order of scheduling. To make "after the current message"
 * exact, a mailbox processes one user message per turn (the section's {@code throughput} is
 * ignored). Sends from other threads run on those threads; one actor still never runs on two
 * threads at once (the mailbox's SCHEDULED bit).
 *
 * <p>Not for production: a slow actor blocks its sender, and actors that block waiting for each
 * other's replies (ask inside a handler) deadlock. {@link #executor()} runs tasks on the calling
 * thread through the same trampoline.
 */
public final class CallingThreadDispatcher extends Dispatcher {

  /** Config value of this kind. */
  public static final String TYPE = "CallingThreadDispatcher";

  /** Per thread: runnables scheduled while the thread is already running one; null when idle. */
  private static final ThreadLocal<ArrayDeque<Runnable>> TRAMPOLINE = new ThreadLocal<>();

  CallingThreadDispatcher(DispatcherSettings settings, Thread.UncaughtExceptionHandler onError) {
    super(settings, new CallingThreadExecutor(onError), 1);
  }

  @Override
  void execute(Mailbox mailbox) {
    if (executor().isShutdown()) {
      mailbox.rejected();
    } else {
      executor().execute(mailbox);
    }
  }

  /**
   * Runs {@code task} on the calling thread now, or, if this thread is already inside such a run,
   * after that run (FIFO). A task that throws is reported and the others still run.
   *
   * @param task what to run
   * @param onError receives what a task throws
   */
  static void runOnCaller(Runnable task, Thread.UncaughtExceptionHandler onError) {
    ArrayDeque<Runnable> pending = TRAMPOLINE.get();
    if (pending != null) {
      pending.addLast(task); // re-entrant: queued, the outermost call runs it
      return;
    }
    pending = new ArrayDeque<>();
    TRAMPOLINE.set(pending);
    try {
      Runnable next = task;
      do {
        try {
          next.run();
        } catch (Throwable t) {
          onError.uncaughtException(Thread.currentThread(), t);
        }
      } while ((next = pending.pollFirst()) != null);
    } finally {
      TRAMPOLINE.remove();
    }
  }

  /** An executor without threads: {@link #runOnCaller}. */
  private static final class CallingThreadExecutor extends AbstractExecutorService {
    private final Thread.UncaughtExceptionHandler onError;
    private volatile boolean shutdown; // volatile: any thread may shut down or ask

    CallingThreadExecutor(Thread.UncaughtExceptionHandler onError) {
      this.onError = onError;
    }

    @Override
    public void execute(Runnable command) {
      if (command == null) {
        throw new NullPointerException("command");
      }
      if (shutdown) {
        throw new java.util.concurrent.RejectedExecutionException("calling-thread executor is shut down");
      }
      runOnCaller(command, onError);
    }

    @Override
    public void shutdown() {
      shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
      shutdown = true;
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return shutdown;
    }

    @Override
    public boolean isTerminated() {
      return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return shutdown;
    }
  }
}
