package dev.troupe.persistence.query;

import java.util.concurrent.Flow;

/** The TCK against {@code currentChanges}: a fresh tag with exactly the elements asked for. */
public class CurrentDurableStateChangesTckTest extends DurableStateTck {
  @Override
  public long maxElementsFromPublisher() {
    return 1024;
  }

  @Override
  public Flow.Publisher<DurableStateChange<String>> createFlowPublisher(long elements) {
    return queries.currentChanges(storedChanges(elements), Offset.noOffset());
  }
}
