package dev.troupe.actor.internal;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A bounded wait for a state that no event announces (a counter the runtime adds to when a run
 * ends, a scheduler's pending count): polls every millisecond until the condition holds, and fails
 * naming what it waited for and what it saw last. The poll interval is not a synchroniser; the
 * runtime's tests cannot use the testkit's {@code awaitCond}, which depends on this module.
 */
public final class Await {
  private Await() {}

  /**
   * Waits until {@code condition} holds.
   *
   * @param what what is awaited, for the failure message
   * @param max the bound
   * @param condition the state
   * @param diagnostics what was seen, for the failure message
   */
  public static void until(
      String what, Duration max, BooleanSupplier condition, Supplier<String> diagnostics) {
    long deadline = System.nanoTime() + max.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("waited " + max + " for: " + what + "; " + diagnostics.get());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }
}
