package dev.troupe.actor;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * How a parent handles its children's failures: a {@link Decider} chooses a {@link Directive};
 * restarts are limited to {@code maxNrOfRetries} within {@code withinTimeRange}, past which the
 * child is stopped.
 *
 * <p>{@link OneForOneStrategy} applies the directive to the failed child only; {@link
 * AllForOneStrategy} to all children.
 */
public abstract sealed class SupervisorStrategy permits OneForOneStrategy, AllForOneStrategy {
  private static final Decider DEFAULT_DECIDER =
      cause -> {
        if (cause instanceof ActorInitializationException
            || cause instanceof ActorKilledException
            || cause instanceof DeathPactException) {
          return Directive.STOP;
        }
        return cause instanceof Exception ? Directive.RESTART : Directive.ESCALATE;
      };

  private static final SupervisorStrategy DEFAULT = new OneForOneStrategy(-1, DEFAULT_DECIDER);
  private static final SupervisorStrategy STOPPING =
      new OneForOneStrategy(-1, cause -> Directive.STOP);

  private final int maxNrOfRetries;
  private final Duration withinTimeRange; // null = no window
  private final Decider decider;
  private final boolean loggingEnabled;
  private final Function<Directive, String> wording; // null: each directive's own name

  SupervisorStrategy(
      int maxNrOfRetries, Duration withinTimeRange, Decider decider, boolean loggingEnabled) {
    this(maxNrOfRetries, withinTimeRange, decider, loggingEnabled, null);
  }

  SupervisorStrategy(
      int maxNrOfRetries,
      Duration withinTimeRange,
      Decider decider,
      boolean loggingEnabled,
      Function<Directive, String> wording) {
    if (maxNrOfRetries < -1) {
      throw new IllegalArgumentException(
          "maxNrOfRetries must be -1 (unlimited) or >= 0, was " + maxNrOfRetries);
    }
    if (withinTimeRange != null && (withinTimeRange.isNegative() || withinTimeRange.isZero())) {
      throw new IllegalArgumentException(
          "withinTimeRange must be positive, was " + withinTimeRange);
    }
    this.maxNrOfRetries = maxNrOfRetries;
    this.withinTimeRange = withinTimeRange;
    this.decider = Objects.requireNonNull(decider, "decider");
    this.loggingEnabled = loggingEnabled;
    this.wording = wording;
  }

  /**
   * Restart on {@link Exception}, stop on {@link ActorInitializationException}, {@link
   * ActorKilledException} and {@link DeathPactException}, escalate other throwables; no limit.
   *
   * @return the default strategy
   */
  public static SupervisorStrategy defaultStrategy() {
    return DEFAULT;
  }

  /** @return the default strategy's decider */
  public static Decider defaultDecider() {
    return DEFAULT_DECIDER;
  }

  /** @return a strategy that stops every failing child */
  public static SupervisorStrategy stoppingStrategy() {
    return STOPPING;
  }

  /** @return {@link Directive#RESUME} */
  public static Directive resume() {
    return Directive.RESUME;
  }

  /** @return {@link Directive#RESTART} */
  public static Directive restart() {
    return Directive.RESTART;
  }

  /** @return {@link Directive#STOP} */
  public static Directive stop() {
    return Directive.STOP;
  }

  /** @return {@link Directive#ESCALATE} */
  public static Directive escalate() {
    return Directive.ESCALATE;
  }

  /** @return the decider */
  public Decider decider() {
    return decider;
  }

  /** @return restarts allowed within the window, -1 for unlimited */
  public int maxNrOfRetries() {
    return maxNrOfRetries;
  }

  /** @return the window restarts are counted in, {@code null} for none */
  public Duration withinTimeRange() {
    return withinTimeRange;
  }

  /** @return whether failures are logged */
  public boolean loggingEnabled() {
    return loggingEnabled;
  }

  /**
   * What the supervisor's failure log line says it does for {@code directive}: by default the
   * directive's own name ({@code restart}, {@code stop}, ...), worded by the runtime; a supervisor
   * that does more than the directive says says it here (the backoff supervisor stops a failed child
   * to recreate it after a delay: "restart after backoff of 400 ms"). Asked right after the
   * decider, on the supervisor's thread.
   *
   * @param directive what the decider chose
   * @return the words for the log line, or null for the runtime's own
   */
  public String decisionWording(Directive directive) {
    return wording == null ? null : wording.apply(directive);
  }

  /** @return whether the directive applies to all children rather than the failed one */
  public abstract boolean appliesToAllChildren();
}
