package dev.troupe.bench.common;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The end-of-work signal of one benchmark invocation: actors count it down when their share of the
 * work is done, or fail it when they see a wrong result; the benchmark thread waits with a bound,
 * so a lost message fails the run instead of hanging it.
 */
public final class Completion {
  /** How long one invocation may take before it counts as lost. */
  public static final long TIMEOUT_SECONDS = 60;

  private final CountDownLatch latch;
  private volatile String failure; // written by an actor thread, read by the benchmark thread

  /**
   * @param parties how many {@link #done()} calls complete it
   */
  public Completion(int parties) {
    this.latch = new CountDownLatch(parties);
  }

  /** One party finished. */
  public void done() {
    latch.countDown();
  }

  /**
   * Marks the invocation failed and releases the waiter.
   *
   * @param why what went wrong
   */
  public void fail(String why) {
    failure = why;
    while (latch.getCount() > 0) {
      latch.countDown();
    }
  }

  /**
   * Waits for all parties.
   *
   * @param what the work, named in the exception
   * @throws IllegalStateException on timeout, interruption or a reported failure
   */
  public void await(String what) {
    boolean ok;
    try {
      ok = latch.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(what + ": interrupted", e);
    }
    if (!ok) {
      throw new IllegalStateException(
          what
              + ": not done after "
              + TIMEOUT_SECONDS
              + " s, "
              + latch.getCount()
              + " parties missing (lost message?)");
    }
    String f = failure;
    if (f != null) {
      throw new IllegalStateException(what + ": " + f);
    }
  }
}
