package dev.troupe.persistence.internal.file;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread on which a file plugin does all its IO, in the order the tasks were given.
 * Callers never wait for it: they get a stage that the thread completes. After {@link #close}
 * every task fails with an {@link IllegalStateException}, including one given while it closed.
 */
public final class IoThread {
  private static final Logger LOG = LoggerFactory.getLogger(IoThread.class);
  private static final long CLOSE_WAIT_SECONDS = 10;

  /** A piece of IO work. */
  public interface Task<T> {
    T run() throws Exception;
  }

  private final String owner;
  private final ExecutorService executor;
  private volatile Thread thread;
  private volatile boolean closed;
  /** Set on the thread by the last task: tasks that slipped in behind it do nothing. */
  private boolean finished;

  /**
   * @param owner what the thread serves, for messages (e.g. "FileJournal of system [s]")
   * @param namePrefix the thread's name, before its number
   * @param numbers the counter that numbers threads of this kind
   */
  public IoThread(String owner, String namePrefix, AtomicInteger numbers) {
    this.owner = owner;
    String name = namePrefix + numbers.incrementAndGet();
    this.executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      thread = t;
      return t;
    });
  }

  /**
   * Runs a task on the thread.
   *
   * @param <T> the result's type
   * @param task the work
   * @return completes on the thread with the task's result or failure, or at once (exceptionally)
   *     after close
   */
  public <T> CompletableFuture<T> submit(Task<T> task) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Runnable run = () -> {
      if (finished) {
        result.completeExceptionally(closedException());
        return;
      }
      try {
        result.complete(task.run());
      } catch (Throwable e) { // a stage that never completes would hang its actor: every failure ends it
        result.completeExceptionally(e);
      }
    };
    if (closed || !offer(run)) {
      result.completeExceptionally(closedException());
    }
    return result;
  }

  private boolean offer(Runnable run) {
    try {
      executor.execute(run);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /** @return whether {@link #close} was called */
  public boolean isClosed() {
    return closed;
  }

  /** @return what a task given after close fails with */
  public IllegalStateException closedException() {
    return new IllegalStateException(owner + " is closed");
  }

  /**
   * Runs {@code last} after the tasks already given, then stops the thread; waits a while for it
   * (not when called on the thread itself). Idempotent.
   *
   * @param last closes the plugin's files
   */
  public void close(Runnable last) {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    offer(() -> {
      try {
        last.run();
      } finally {
        finished = true;
      }
    });
    executor.shutdown();
    if (Thread.currentThread() == thread) {
      return;
    }
    try {
      if (!executor.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
        LOG.warn("{}: its IO thread did not finish within {} s of close; its files may stay open until it does",
            owner, CLOSE_WAIT_SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
