package dev.troupe.executors;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Bounded waits and small fixtures shared by the executor tests. */
final class TestSupport {

  private TestSupport() {}

  /** Polls {@code condition} until true or fails with {@code message} after {@code timeout}. */
  static void awaitTrue(Duration timeout, Supplier<String> message, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("timed out after " + timeout.toMillis() + " ms: " + message.get());
      }
      LockSupport.parkNanos(50_000);
    }
  }

  /**
   * Blocks a task until {@code latch} opens, at most 20 s (the tests' own bounds are shorter, so a
   * latch never opened fails the test, not this wait); an interrupt ends the wait and is kept.
   */
  static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Shuts the pool down and asserts it terminates and its threads die within 5 s. */
  static void shutdownAndVerify(AffinityPool pool, RecordingThreadFactory threads)
      throws InterruptedException {
    pool.shutdown();
    assertTrue(pool.awaitTermination(5, TimeUnit.SECONDS), pool + " did not terminate in 5 s");
    if (threads != null) {
      threads.assertAllDead(Duration.ofSeconds(5));
    }
  }

  /** A thread factory that remembers its threads. */
  static class RecordingThreadFactory implements ThreadFactory {
    final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final ThreadFactory delegate;

    RecordingThreadFactory(String prefix) {
      this.delegate = new NamedThreadFactory(prefix, true);
    }

    @Override
    public Thread newThread(Runnable r) {
      Thread t = delegate.newThread(r);
      threads.add(t);
      return t;
    }

    void assertAllDead(Duration timeout) throws InterruptedException {
      for (Thread t : threads) {
        t.join(timeout.toMillis());
        assertTrue(!t.isAlive(), "thread " + t.getName() + " still alive after " + timeout);
      }
    }
  }

  /** A minimal Affine task, like the runtime's mailbox: a plain int hint. */
  abstract static class AffineTask implements Affine, Runnable {
    private int affinity = NO_AFFINITY;

    @Override
    public int affinity() {
      return affinity;
    }

    @Override
    public void affinity(int stripe) {
      affinity = stripe;
    }
  }

  /** An idle strategy that parks until unparked: a lost wake-up hangs instead of self-healing. */
  static final class ParkUntilWokenIdleStrategy implements IdleStrategy {
    @Override
    public void idle() {
      LockSupport.park(this);
    }

    @Override
    public void reset() {}
  }
}
