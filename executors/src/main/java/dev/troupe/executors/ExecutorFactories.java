package dev.troupe.executors;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Factories for the JDK's executors, configured the way the Troupe dispatchers need them. */
public final class ExecutorFactories {

  /** Largest fork-join parallelism the JDK supports. */
  public static final int MAX_FORK_JOIN_PARALLELISM = 0x7FFF;

  private ExecutorFactories() {}

  /**
   * Creates a {@link ForkJoinPool} whose threads are named {@code <threadNamePrefix>-<n>}.
   *
   * @param parallelism {@code 1..}{@link #MAX_FORK_JOIN_PARALLELISM}
   * @param asyncMode FIFO scheduling of forked tasks that are never joined (right for actors)
   * @param threadNamePrefix the thread name prefix, not blank
   * @param daemon whether the threads are daemon threads
   * @param uncaughtExceptionHandler handler for tasks that throw, or null for the JDK default
   * @return the pool
   * @throws IllegalArgumentException naming the first invalid argument
   */
  public static ExecutorService forkJoin(
      int parallelism,
      boolean asyncMode,
      String threadNamePrefix,
      boolean daemon,
      Thread.UncaughtExceptionHandler uncaughtExceptionHandler) {
    if (parallelism < 1 || parallelism > MAX_FORK_JOIN_PARALLELISM) {
      throw new IllegalArgumentException(
          "parallelism must be between 1 and " + MAX_FORK_JOIN_PARALLELISM + ", was "
              + parallelism);
    }
    checkPrefix(threadNamePrefix);
    AtomicInteger count = new AtomicInteger();
    ForkJoinPool.ForkJoinWorkerThreadFactory factory =
        pool -> {
          ForkJoinWorkerThread t = new NamedForkJoinWorkerThread(pool);
          t.setName(threadNamePrefix + "-" + count.incrementAndGet());
          t.setDaemon(daemon);
          return t;
        };
    return new ForkJoinPool(parallelism, factory, uncaughtExceptionHandler, asyncMode);
  }

  /**
   * Creates a {@link ThreadPoolExecutor}. With an unbounded queue ({@code queueSize <= 0}) the
   * pool never grows beyond {@code core} threads (the JDK grows it only when the queue refuses a
   * task), so {@code max} then only bounds {@code core}. A full bounded queue with {@code max}
   * threads busy rejects with {@link java.util.concurrent.RejectedExecutionException}.
   *
   * @param core threads kept alive when idle, {@code >= 0}
   * @param max most threads, {@code >= max(1, core)}
   * @param keepAlive how long an idle thread above {@code core} lives, {@code >= 0}
   * @param queueSize bound of the task queue, or {@code <= 0} for an unbounded queue
   * @param threadFactory the thread factory
   * @return the executor
   * @throws IllegalArgumentException naming the first invalid argument
   * @throws NullPointerException if {@code keepAlive} or {@code threadFactory} is null
   */
  public static ExecutorService threadPool(
      int core, int max, Duration keepAlive, int queueSize, ThreadFactory threadFactory) {
    if (core < 0) {
      throw new IllegalArgumentException("core must be >= 0, was " + core);
    }
    if (max < 1 || max < core) {
      throw new IllegalArgumentException(
          "max must be >= 1 and >= core (" + core + "), was " + max);
    }
    if (keepAlive == null) {
      throw new NullPointerException("keepAlive must not be null");
    }
    if (keepAlive.isNegative()) {
      throw new IllegalArgumentException("keepAlive must be >= 0, was " + keepAlive);
    }
    if (threadFactory == null) {
      throw new NullPointerException("threadFactory must not be null");
    }
    BlockingQueue<Runnable> queue =
        queueSize <= 0 ? new LinkedBlockingQueue<>() : new ArrayBlockingQueue<>(queueSize);
    long keepAliveNanos = saturatedNanos(keepAlive);
    return new ThreadPoolExecutor(
        core, max, keepAliveNanos, TimeUnit.NANOSECONDS, queue, threadFactory);
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException overflow) {
      return Long.MAX_VALUE;
    }
  }

  private static void checkPrefix(String prefix) {
    if (prefix == null) {
      throw new NullPointerException("threadNamePrefix must not be null");
    }
    if (prefix.isBlank()) {
      throw new IllegalArgumentException("threadNamePrefix must not be blank");
    }
  }

  /** ForkJoinWorkerThread's constructor is protected; this subclass only exposes it. */
  private static final class NamedForkJoinWorkerThread extends ForkJoinWorkerThread {
    NamedForkJoinWorkerThread(ForkJoinPool pool) {
      super(pool);
    }
  }
}
