package dev.troupe.actor.typed;

import java.time.Duration;
import java.util.Objects;

/**
 * What {@code Behaviors.supervise(b).onFailure(type, strategy)} does when the behaviour throws an
 * exception of {@code type}: {@link #resume()} (keep the behaviour and its state, drop the message),
 * {@link #restart()} (run the initial behaviour's setup again), {@link #stop()} (the actor stops; a
 * watching parent gets {@link ChildFailed}), or {@link #restartWithBackoff} (restart after a growing
 * delay). A typed actor with no supervision stops on any exception.
 *
 * <p>Immutable values: {@code restart().withLimit(3, Duration.ofSeconds(10))} is a new strategy.
 */
public abstract sealed class SupervisorStrategy
    permits SupervisorStrategy.Resume,
        SupervisorStrategy.Stop,
        SupervisorStrategy.Restart,
        SupervisorStrategy.Backoff {
  /** Number of messages kept while a restart waits for the children or the backoff (default). */
  static final int DEFAULT_STASH_CAPACITY = 1000;

  private SupervisorStrategy() {}

  /** @return keep the current behaviour and its state; the failed message is dropped */
  public static SupervisorStrategy resume() {
    return Resume.INSTANCE;
  }

  /** @return stop the actor (what an unsupervised typed actor does) */
  public static SupervisorStrategy stop() {
    return Stop.INSTANCE;
  }

  /** @return restart without limit: the children stop, then the initial behaviour starts again */
  public static Restart restart() {
    return Restart.UNLIMITED;
  }

  /**
   * Restarts after a delay that doubles with every restart: restart {@code k} (0-based) waits {@code
   * min(maxBackoff, minBackoff * 2^k) * (1 + random in [0, randomFactor])}. Messages that arrive
   * meanwhile are kept (up to {@link Backoff#withStashCapacity}) and handled after the restart.
   *
   * @param minBackoff the first delay
   * @param maxBackoff the largest delay
   * @param randomFactor the random share added to each delay, e.g. 0.2 (at least 0)
   * @return the strategy
   */
  public static Backoff restartWithBackoff(Duration minBackoff, Duration maxBackoff, double randomFactor) {
    return new Backoff(minBackoff, maxBackoff, randomFactor, -1, maxBackoff, DEFAULT_STASH_CAPACITY);
  }

  /** Resume: see {@link SupervisorStrategy#resume()}. */
  public static final class Resume extends SupervisorStrategy {
    static final Resume INSTANCE = new Resume();

    private Resume() {}

    @Override
    public String toString() {
      return "resume";
    }
  }

  /** Stop: see {@link SupervisorStrategy#stop()}. */
  public static final class Stop extends SupervisorStrategy {
    static final Stop INSTANCE = new Stop();

    private Stop() {}

    @Override
    public String toString() {
      return "stop";
    }
  }

  /** Restart, optionally at most {@code maxRetries} times within a window. */
  public static final class Restart extends SupervisorStrategy {
    static final Restart UNLIMITED = new Restart(-1, Duration.ZERO, DEFAULT_STASH_CAPACITY);

    private final int maxRetries;
    private final Duration within;
    private final int stashCapacity;

    private Restart(int maxRetries, Duration within, int stashCapacity) {
      this.maxRetries = maxRetries;
      this.within = within;
      this.stashCapacity = stashCapacity;
    }

    /**
     * At most {@code maxRetries} restarts within {@code within}; one failure more stops the actor.
     * A failure while the initial behaviour is being set up is retried at once, so give such a
     * behaviour a limit.
     *
     * @param maxRetries restarts allowed in the window (at least 0; -1 = unlimited)
     * @param within the window ({@link Duration#ZERO}: no window, i.e. in the actor's life)
     * @return the strategy
     */
    public Restart withLimit(int maxRetries, Duration within) {
      if (maxRetries < -1) {
        throw new IllegalArgumentException("maxRetries must be >= -1, was " + maxRetries);
      }
      Objects.requireNonNull(within, "within");
      if (within.isNegative()) {
        throw new IllegalArgumentException("within must not be negative, was " + within);
      }
      return new Restart(maxRetries, within, stashCapacity);
    }

    /**
     * How many messages a restart keeps while it waits for the old children to stop (default
     * 1000); more go to dead letters.
     *
     * @param capacity the capacity (at least 0)
     * @return the strategy
     */
    public Restart withStashCapacity(int capacity) {
      if (capacity < 0) {
        throw new IllegalArgumentException("stash capacity must be >= 0, was " + capacity);
      }
      return new Restart(maxRetries, within, capacity);
    }

    /** @return restarts allowed within the window, -1 = unlimited */
    public int maxRetries() {
      return maxRetries;
    }

    /** @return the window, {@link Duration#ZERO} = the actor's life */
    public Duration within() {
      return within;
    }

    /** @return messages kept while restarting */
    public int stashCapacity() {
      return stashCapacity;
    }

    @Override
    public String toString() {
      return maxRetries < 0 ? "restart" : "restart(at most " + maxRetries + " within " + within + ")";
    }
  }

  /** Restart with a growing delay: see {@link SupervisorStrategy#restartWithBackoff}. */
  public static final class Backoff extends SupervisorStrategy {
    private final Duration minBackoff;
    private final Duration maxBackoff;
    private final double randomFactor;
    private final int maxRestarts;
    private final Duration resetBackoffAfter;
    private final int stashCapacity;

    Backoff(Duration minBackoff, Duration maxBackoff, double randomFactor, int maxRestarts,
        Duration resetBackoffAfter, int stashCapacity) {
      Objects.requireNonNull(minBackoff, "minBackoff");
      Objects.requireNonNull(maxBackoff, "maxBackoff");
      Objects.requireNonNull(resetBackoffAfter, "resetBackoffAfter");
      if (minBackoff.isNegative() || minBackoff.isZero() || maxBackoff.compareTo(minBackoff) < 0) {
        throw new IllegalArgumentException(
            "backoff needs 0 < minBackoff <= maxBackoff, was " + minBackoff + " and " + maxBackoff);
      }
      if (!(randomFactor >= 0.0) || Double.isInfinite(randomFactor)) {
        throw new IllegalArgumentException("randomFactor must be a number >= 0, was " + randomFactor);
      }
      if (maxRestarts < -1) {
        throw new IllegalArgumentException("maxRestarts must be >= -1, was " + maxRestarts);
      }
      if (stashCapacity < 0) {
        throw new IllegalArgumentException("stash capacity must be >= 0, was " + stashCapacity);
      }
      this.minBackoff = minBackoff;
      this.maxBackoff = maxBackoff;
      this.randomFactor = randomFactor;
      this.maxRestarts = maxRestarts;
      this.resetBackoffAfter = resetBackoffAfter;
      this.stashCapacity = stashCapacity;
    }

    /**
     * At most {@code maxRestarts} restarts in a row (a run longer than {@link #resetBackoffAfter()}
     * starts the count again); one failure more stops the actor.
     *
     * @param maxRestarts the limit, -1 = unlimited
     * @return the strategy
     */
    public Backoff withMaxRestarts(int maxRestarts) {
      return new Backoff(minBackoff, maxBackoff, randomFactor, maxRestarts, resetBackoffAfter, stashCapacity);
    }

    /**
     * After this long without a failure, the next delay is {@code minBackoff} again (default: {@code
     * maxBackoff}).
     *
     * @param after the quiet time
     * @return the strategy
     */
    public Backoff withResetBackoffAfter(Duration after) {
      return new Backoff(minBackoff, maxBackoff, randomFactor, maxRestarts, after, stashCapacity);
    }

    /**
     * How many messages are kept during the backoff (default 1000); more go to dead letters.
     *
     * @param capacity the capacity
     * @return the strategy
     */
    public Backoff withStashCapacity(int capacity) {
      return new Backoff(minBackoff, maxBackoff, randomFactor, maxRestarts, resetBackoffAfter, capacity);
    }

    /** @return the first delay */
    public Duration minBackoff() {
      return minBackoff;
    }

    /** @return the largest delay */
    public Duration maxBackoff() {
      return maxBackoff;
    }

    /** @return the random share added to each delay */
    public double randomFactor() {
      return randomFactor;
    }

    /** @return restarts allowed in a row, -1 = unlimited */
    public int maxRestarts() {
      return maxRestarts;
    }

    /** @return the quiet time after which the delay starts over */
    public Duration resetBackoffAfter() {
      return resetBackoffAfter;
    }

    /** @return messages kept during the backoff */
    public int stashCapacity() {
      return stashCapacity;
    }

    /**
     * The delay before restart {@code k} (0-based), without the random share.
     *
     * @param k the restart's number
     * @return {@code min(maxBackoff, minBackoff * 2^k)}
     */
    public Duration delayOf(int k) {
      long min = minBackoff.toNanos();
      long max = maxBackoff.toNanos();
      long d = k >= 62 || min > (max >> Math.min(k, 62)) ? max : Math.min(max, min << k);
      return Duration.ofNanos(d);
    }

    @Override
    public String toString() {
      return "restartWithBackoff(" + minBackoff + ", " + maxBackoff + ", " + randomFactor + ")";
    }
  }
}
