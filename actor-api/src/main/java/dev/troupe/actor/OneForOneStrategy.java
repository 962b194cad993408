package dev.troupe.actor;

import java.time.Duration;
import java.util.function.Function;

/** Applies each directive to the failed child only. */
public final class OneForOneStrategy extends SupervisorStrategy {

  /**
   * @param maxNrOfRetries restarts allowed within the window; -1 unlimited, 0 none
   * @param withinTimeRange the window, or {@code null} / non-finite for none
   * @param decider chooses the directive
   * @param loggingEnabled whether failures are logged
   */
  public OneForOneStrategy(
      int maxNrOfRetries, Duration withinTimeRange, Decider decider, boolean loggingEnabled) {
    super(maxNrOfRetries, withinTimeRange, decider, loggingEnabled);
  }

  /**
   * @param maxNrOfRetries restarts allowed within the window; -1 unlimited
   * @param withinTimeRange the window
   * @param decider chooses the directive
   */
  public OneForOneStrategy(int maxNrOfRetries, Duration withinTimeRange, Decider decider) {
    this(maxNrOfRetries, withinTimeRange, decider, true);
  }

  /**
   * A strategy with no time window: the restart count never resets.
   *
   * @param maxNrOfRetries restarts allowed in total; -1 unlimited
   * @param decider chooses the directive
   */
  public OneForOneStrategy(int maxNrOfRetries, Decider decider) {
    this(maxNrOfRetries, null, decider, true);
  }

  /**
   * A strategy with unlimited restarts.
   *
   * @param decider chooses the directive
   */
  public OneForOneStrategy(Decider decider) {
    this(-1, null, decider, true);
  }

  private OneForOneStrategy(
      int maxNrOfRetries,
      Duration withinTimeRange,
      Decider decider,
      boolean loggingEnabled,
      Function<Directive, String> wording) {
    super(maxNrOfRetries, withinTimeRange, decider, loggingEnabled, wording);
  }

  /**
   * This strategy with its own words for the failure log line ({@link #decisionWording}).
   *
   * @param wording the words for a directive, or null for the runtime's own
   * @return a copy of this strategy that words its decisions with {@code wording}
   */
  public OneForOneStrategy withDecisionWording(Function<Directive, String> wording) {
    return new OneForOneStrategy(maxNrOfRetries(), withinTimeRange(), decider(), loggingEnabled(), wording);
  }

  @Override
  public boolean appliesToAllChildren() {
    return false;
  }
}
