package dev.troupe.persistence.query;

import java.util.concurrent.Flow;

/**
 * The TCK against the live {@code changes}, which never completes: the TCK is told so ({@code
 * Long.MAX_VALUE} elements) and skips the rules that need a completion. A publisher asked for more
 * than 64 elements gets 64 stored; it polls the store for more after them (the refresh path).
 */
public class LiveDurableStateChangesTckTest extends DurableStateTck {
  @Override
  public long maxElementsFromPublisher() {
    return Long.MAX_VALUE;
  }

  @Override
  public Flow.Publisher<DurableStateChange<String>> createFlowPublisher(long elements) {
    return queries.changes(storedChanges(Math.min(elements, 64)), Offset.noOffset());
  }
}
