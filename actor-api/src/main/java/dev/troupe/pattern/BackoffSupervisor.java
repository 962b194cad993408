package dev.troupe.pattern;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Props;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Backoff supervision: a parent that runs one child and, when the child fails ({@link
 * BackoffOpts#onFailure}) or stops ({@link BackoffOpts#onStop}), recreates it after a delay that
 * doubles with every recreation, up to a cap, with random jitter — so that a child depending on
 * an unavailable resource does not hammer it.
 *
 * <p>Messages sent to the supervisor are forwarded to the current child, with their sender; while
 * the child is down they go to dead letters (or are answered, see {@link
 * BackoffOpts#withReplyWhileStopped}). The supervisor answers {@link GetCurrentChild} and {@link
 * GetRestartCount} itself, and resets its retry count on {@link Reset}. Once the retry limit is
 * reached it stops itself (watch it to find out).
 */
public final class BackoffSupervisor {
  private BackoffSupervisor() {}

  /**
   * The props of a backoff supervisor.
   *
   * @param options what it supervises, and how
   * @return the props
   */
  public static Props props(BackoffOpts options) {
    Objects.requireNonNull(options, "options");
    return Props.create(BackoffSupervisorActor.class, () -> new BackoffSupervisorActor(options));
  }

  /**
   * The delay before recreation number {@code restartCount} (0-based since the last reset): {@code
   * min(maxBackoff, minBackoff * 2^restartCount) * (1 + r)}, r uniform in {@code [0,
   * randomFactor]}. Saturates instead of overflowing for large counts.
   *
   * @param restartCount the number of recreations since the last reset, at least 0
   * @param minBackoff the first delay
   * @param maxBackoff the cap of the exponential part
   * @param randomFactor the jitter, at least 0
   * @return the delay
   * @throws IllegalArgumentException if {@code restartCount} is negative
   */
  public static Duration calculateDelay(
      int restartCount, Duration minBackoff, Duration maxBackoff, double randomFactor) {
    if (restartCount < 0) {
      throw new IllegalArgumentException("restartCount must be >= 0, was " + restartCount);
    }
    long min = saturatedNanos(minBackoff);
    long max = saturatedNanos(maxBackoff);
    long exponential;
    if (restartCount >= 62 || min > (max >> restartCount)) {
      exponential = max; // min * 2^k would pass the cap (or overflow): the cap it is
    } else {
      exponential = Math.min(max, min << restartCount);
    }
    double r = randomFactor == 0.0 ? 0.0 : ThreadLocalRandom.current().nextDouble() * randomFactor;
    double nanos = exponential * (1.0 + r);
    return Duration.ofNanos(nanos >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) nanos);
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  /** Asks the supervisor for its current child; answered with {@link CurrentChild}. */
  public record GetCurrentChild() {}

  /**
   * The supervisor's answer to {@link GetCurrentChild}.
   *
   * @param ref the running child, empty while it is down
   */
  public record CurrentChild(Optional<ActorRef> ref) {
    /**
     * @param ref the running child, empty while it is down
     */
    public CurrentChild {
      Objects.requireNonNull(ref, "ref");
    }
  }

  /** Asks the supervisor how often it recreated its child since the last reset; see {@link RestartCount}. */
  public record GetRestartCount() {}

  /**
   * The supervisor's answer to {@link GetRestartCount}.
   *
   * @param count recreations since the last reset
   */
  public record RestartCount(int count) {}

  /**
   * Resets the supervisor's retry count (and so its next delay to {@code minBackoff}); meant for
   * {@link BackoffOpts#withManualReset()}, honoured in either mode.
   */
  public record Reset() {}
}
