package dev.troupe.persistence.internal.state;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread on which the file durable state store does its IO, in the order the tasks were
 * given; callers get a stage that the thread completes. It works as the file journal's IO thread
 * does (that one is package-private to {@code internal.file}): after {@link #close} every task
 * fails with an {@link IllegalStateException}, including one given while it closed.
 */
final class StoreThread {
  private static final Logger LOG = LoggerFactory.getLogger(StoreThread.class);
  private static final long CLOSE_WAIT_SECONDS = 10;
  private static final AtomicInteger THREADS = new AtomicInteger();

  /** A piece of IO work. */
  interface Task<T> {
    T run() throws Exception;
  }

  private final String owner;
  private final ExecutorService executor;
  private volatile Thread thread;
  private volatile boolean closed;
  /** Set on the thread by the last task: tasks that slipped in behind it do nothing. */
  private boolean finished;

  /** @param owner what the thread serves, for messages */
  StoreThread(String owner) {
    this.owner = owner;
    String name = "troupe-file-durable-state-" + THREADS.incrementAndGet();
    this.executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      thread = t;
      return t;
    });
  }

  /**
   * @param task the work
   * @param <T> its result
   * @return completes on the thread with the task's result or failure, or at once (exceptionally)
   *     after close
   */
  <T> CompletableFuture<T> submit(Task<T> task) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Runnable run = () -> {
      if (finished) {
        result.completeExceptionally(closedException());
        return;
      }
      try {
        result.complete(task.run());
      } catch (Throwable e) { // a stage that never completes would hang its actor
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
  boolean isClosed() {
    return closed;
  }

  /** @return what a task given after close fails with */
  IllegalStateException closedException() {
    return new IllegalStateException(owner + " is closed");
  }

  /**
   * Runs {@code last} after the tasks already given, then stops the thread; waits a while for it
   * (not when called on the thread itself). Idempotent.
   *
   * @param last the store's last work
   */
  void close(Runnable last) {
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
        LOG.warn("{}: its IO thread did not finish within {} s of close", owner, CLOSE_WAIT_SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
