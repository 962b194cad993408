package dev.troupe.pattern;

import dev.troupe.actor.Props;
import dev.troupe.actor.SupervisorStrategy;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link BackoffSupervisor} does: which child it runs, when it recreates it, and how long
 * it waits. Immutable; every {@code with...} returns a new value, and a bad argument fails at the
 * call with a message that names it.
 *
 * <pre>{@code
 * Props sup = BackoffSupervisor.props(
 *     BackoffOpts.onFailure(workerProps, "worker", Duration.ofMillis(100), Duration.ofSeconds(10), 0.2)
 *         .withMaxNrOfRetries(5)
 *         .withAutoReset(Duration.ofSeconds(30)));
 * }</pre>
 *
 * <p>The delay before the k-th recreation (k = 0, 1, ... since the last reset) is {@code
 * min(maxBackoff, minBackoff * 2^k) * (1 + r)} with r drawn uniformly from {@code [0,
 * randomFactor]}; see {@link BackoffSupervisor#calculateDelay}.
 *
 * <p>Defaults: no limit on retries; the retry count resets once a child has run for {@code
 * minBackoff} ({@link #withAutoReset}); failures of the child are handled as described by {@link
 * #onFailure} and {@link #onStop}.
 */
public final class BackoffOpts {
  /** What makes the supervisor recreate its child. */
  enum Trigger {
    FAILURE,
    STOP
  }

  private final Trigger trigger;
  private final Props childProps;
  private final String childName;
  private final Duration minBackoff;
  private final Duration maxBackoff;
  private final double randomFactor;
  private final int maxNrOfRetries; // -1: no limit
  private final Duration autoReset; // null: manual reset only
  private final SupervisorStrategy strategy; // null: the trigger's default
  private final Object replyWhileStopped; // null: dead letters

  private BackoffOpts(
      Trigger trigger,
      Props childProps,
      String childName,
      Duration minBackoff,
      Duration maxBackoff,
      double randomFactor,
      int maxNrOfRetries,
      Duration autoReset,
      SupervisorStrategy strategy,
      Object replyWhileStopped) {
    this.trigger = trigger;
    this.childProps = childProps;
    this.childName = childName;
    this.minBackoff = minBackoff;
    this.maxBackoff = maxBackoff;
    this.randomFactor = randomFactor;
    this.maxNrOfRetries = maxNrOfRetries;
    this.autoReset = autoReset;
    this.strategy = strategy;
    this.replyWhileStopped = replyWhileStopped;
  }

  /**
   * Recreates the child, after a backoff delay, when it <em>fails</em>: a failure the strategy
   * answers with restart stops the child instead, and a new one is started after the delay. By
   * default every {@link Exception} (a failed constructor or {@code preStart} included) is handled
   * so, and any other throwable is escalated. When the child stops for another reason (it stopped
   * itself, or the strategy said stop) the supervisor stops too.
   *
   * @param childProps the child's props
   * @param childName the child's name
   * @param minBackoff the first delay; must be positive
   * @param maxBackoff the cap of the exponential part; at least {@code minBackoff}
   * @param randomFactor the jitter, at least 0 (0.2 adds up to 20 % to each delay)
   * @return the options
   * @throws IllegalArgumentException if an argument is out of range
   */
  public static BackoffOpts onFailure(
      Props childProps, String childName, Duration minBackoff, Duration maxBackoff, double randomFactor) {
    return create(Trigger.FAILURE, childProps, childName, minBackoff, maxBackoff, randomFactor);
  }

  /**
   * Recreates the child, after a backoff delay, whenever it <em>stops</em> (by itself, or because
   * a failure stopped it). Failures that the strategy (by default {@link
   * SupervisorStrategy#defaultStrategy()}) answers with restart restart the child in place, at
   * once, as under any parent.
   *
   * @param childProps the child's props
   * @param childName the child's name
   * @param minBackoff the first delay; must be positive
   * @param maxBackoff the cap of the exponential part; at least {@code minBackoff}
   * @param randomFactor the jitter, at least 0
   * @return the options
   * @throws IllegalArgumentException if an argument is out of range
   */
  public static BackoffOpts onStop(
      Props childProps, String childName, Duration minBackoff, Duration maxBackoff, double randomFactor) {
    return create(Trigger.STOP, childProps, childName, minBackoff, maxBackoff, randomFactor);
  }

  private static BackoffOpts create(
      Trigger trigger,
      Props childProps,
      String childName,
      Duration minBackoff,
      Duration maxBackoff,
      double randomFactor) {
    Objects.requireNonNull(childProps, "childProps");
    Objects.requireNonNull(childName, "childName");
    if (childName.isEmpty()) {
      throw new IllegalArgumentException("childName must not be empty");
    }
    positive(minBackoff, "minBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (maxBackoff.compareTo(minBackoff) < 0) {
      throw new IllegalArgumentException(
          "maxBackoff (" + maxBackoff + ") must be at least minBackoff (" + minBackoff + ")");
    }
    if (!(randomFactor >= 0.0) || Double.isInfinite(randomFactor)) {
      throw new IllegalArgumentException(
          "randomFactor must be a finite number >= 0, was " + randomFactor);
    }
    return new BackoffOpts(
        trigger, childProps, childName, minBackoff, maxBackoff, randomFactor, -1, minBackoff, null, null);
  }

  /**
   * Limits the recreations: once the child would be recreated for the {@code (n+1)}-th time since
   * the last reset, the supervisor stops itself instead.
   *
   * @param n the limit, at least 0; -1 for no limit (the default)
   * @return the new options
   * @throws IllegalArgumentException if {@code n < -1}
   */
  public BackoffOpts withMaxNrOfRetries(int n) {
    if (n < -1) {
      throw new IllegalArgumentException("maxNrOfRetries must be -1 (no limit) or >= 0, was " + n);
    }
    return new BackoffOpts(
        trigger, childProps, childName, minBackoff, maxBackoff, randomFactor, n, autoReset, strategy,
        replyWhileStopped);
  }

  /**
   * Resets the retry count (and so the delay) once a child has run for {@code resetBackoff}
   * without being recreated. The default is {@code minBackoff}.
   *
   * @param resetBackoff how long a child must run; must be positive
   * @return the new options
   * @throws IllegalArgumentException if {@code resetBackoff} is not positive
   */
  public BackoffOpts withAutoReset(Duration resetBackoff) {
    positive(resetBackoff, "resetBackoff");
    return new BackoffOpts(
        trigger, childProps, childName, minBackoff, maxBackoff, randomFactor, maxNrOfRetries,
        resetBackoff, strategy, replyWhileStopped);
  }

  /**
   * Resets the retry count only when the supervisor receives {@link BackoffSupervisor.Reset}
   * (typically from the child, once it considers itself healthy).
   *
   * @return the new options
   */
  public BackoffOpts withManualReset() {
    return new BackoffOpts(
        trigger, childProps, childName, minBackoff, maxBackoff, randomFactor, maxNrOfRetries, null,
        strategy, replyWhileStopped);
  }

  /**
   * The strategy for the child's failures. With {@link #onFailure}, its restart means "stop, then
   * recreate after the delay"; with {@link #onStop} it applies as under any parent.
   *
   * @param supervisorStrategy the strategy
   * @return the new options
   */
  public BackoffOpts withSupervisorStrategy(SupervisorStrategy supervisorStrategy) {
    Objects.requireNonNull(supervisorStrategy, "supervisorStrategy");
    return new BackoffOpts(
        trigger, childProps, childName, minBackoff, maxBackoff, randomFactor, maxNrOfRetries,
        autoReset, supervisorStrategy, replyWhileStopped);
  }

  /**
   * While the child is down, answers each message with {@code reply} (to its sender) instead of
   * sending it to dead letters.
   *
   * @param reply the answer
   * @return the new options
   */
  public BackoffOpts withReplyWhileStopped(Object reply) {
    Objects.requireNonNull(reply, "reply");
    return new BackoffOpts(
        trigger, childProps, childName, minBackoff, maxBackoff, randomFactor, maxNrOfRetries,
        autoReset, strategy, reply);
  }

  /** @return the child's props */
  public Props childProps() {
    return childProps;
  }

  /** @return the child's name */
  public String childName() {
    return childName;
  }

  /** @return the first delay */
  public Duration minBackoff() {
    return minBackoff;
  }

  /** @return the cap of the exponential part of the delay */
  public Duration maxBackoff() {
    return maxBackoff;
  }

  /** @return the jitter factor */
  public double randomFactor() {
    return randomFactor;
  }

  /** @return the retry limit, -1 for none */
  public int maxNrOfRetries() {
    return maxNrOfRetries;
  }

  /** @return how long a child must run for the retry count to reset; empty with manual reset */
  public Optional<Duration> autoReset() {
    return Optional.ofNullable(autoReset);
  }

  Trigger trigger() {
    return trigger;
  }

  SupervisorStrategy strategy() {
    return strategy;
  }

  Object replyWhileStopped() {
    return replyWhileStopped;
  }

  @Override
  public String toString() {
    return "BackoffOpts[on " + trigger.name().toLowerCase(Locale.ROOT) + ", child " + childName
        + ", " + minBackoff + ".." + maxBackoff + ", randomFactor " + randomFactor
        + ", maxNrOfRetries " + maxNrOfRetries + ", reset " + (autoReset == null ? "manual" : "after " + autoReset)
        + "]";
  }

  private static void positive(Duration d, String what) {
    Objects.requireNonNull(d, what);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive, was " + d);
    }
  }
}
