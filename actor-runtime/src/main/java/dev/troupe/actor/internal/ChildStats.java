package dev.troupe.actor.internal;

import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.actor.SupervisorStrategy;
import java.time.Duration;

/** Per-child supervision state; touched only on the parent's thread except {@code child}. */
final class ChildStats {
  final InternalActorRef child;
  private int restarts;
  private long windowStartNanos;
  private boolean stopping;

  ChildStats(InternalActorRef child) {
    this.child = child;
  }

  boolean isStopping() {
    return stopping;
  }

  void markStopping() {
    stopping = true;
  }

  /**
   * Counts a restart against the strategy's limit.
   *
   * @return whether the restart is allowed
   */
  boolean requestRestartPermission(SupervisorStrategy strategy, long nowNanos) {
    int max = strategy.maxNrOfRetries();
    if (max < 0) {
      return true;
    }
    if (max == 0) {
      return false;
    }
    Duration window = strategy.withinTimeRange();
    if (window == null) {
      return ++restarts <= max;
    }
    if (restarts == 0 || nowNanos - windowStartNanos > window.toNanos()) {
      windowStartNanos = nowNanos;
      restarts = 1;
      return true;
    }
    return ++restarts <= max;
  }
}
