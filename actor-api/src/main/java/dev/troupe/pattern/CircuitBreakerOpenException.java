package dev.troupe.pattern;

import java.time.Duration;

/**
 * A call refused because its {@link CircuitBreaker} is open (or half-open with its trial call
 * already under way): the protected service was not called.
 */
public final class CircuitBreakerOpenException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Duration remaining;

  /**
   * @param remaining how long until the breaker lets a trial call through
   * @param message what happened
   */
  public CircuitBreakerOpenException(Duration remaining, String message) {
    super(message, null, false, false); // refused calls are frequent and expected: no stack trace
    this.remaining = remaining;
  }

  /** @return how long until the breaker lets a trial call through (zero when one is under way) */
  public Duration remainingDuration() {
    return remaining;
  }
}
