package dev.troupe.actor;

import java.time.Duration;

/** Applies each directive to all children of the supervisor, not only the failed one: for children that depend on each other. */
public final class AllForOneStrategy extends SupervisorStrategy {

  /**
   * @param maxNrOfRetries restarts allowed within the window; -1 unlimited, 0 none
   * @param withinTimeRange the window, or {@code null} / non-finite for none
   * @param decider chooses the directive
   * @param loggingEnabled whether failures are logged
   */
  public AllForOneStrategy(
      int maxNrOfRetries, Duration withinTimeRange, Decider decider, boolean loggingEnabled) {
    super(maxNrOfRetries, withinTimeRange, decider, loggingEnabled);
  }

  /**
   * @param maxNrOfRetries restarts allowed within the window; -1 unlimited
   * @param withinTimeRange the window
   * @param decider chooses the directive
   */
  public AllForOneStrategy(int maxNrOfRetries, Duration withinTimeRange, Decider decider) {
    this(maxNrOfRetries, withinTimeRange, decider, true);
  }

  /**
   * A strategy with no time window: the restart count never resets.
   *
   * @param maxNrOfRetries restarts allowed in total; -1 unlimited
   * @param decider chooses the directive
   */
  public AllForOneStrategy(int maxNrOfRetries, Decider decider) {
    this(maxNrOfRetries, null, decider, true);
  }

  /**
   * A strategy with unlimited restarts.
   *
   * @param decider chooses the directive
   */
  public AllForOneStrategy(Decider decider) {
    this(-1, null, decider, true);
  }

  @Override
  public boolean appliesToAllChildren() {
    return true;
  }
}
