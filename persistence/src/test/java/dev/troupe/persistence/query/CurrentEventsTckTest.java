package dev.troupe.persistence.query;

import java.util.concurrent.Flow;

/** The TCK against {@code currentEventsByPersistenceId}: a stream that ends with what is stored. */
public class CurrentEventsTckTest extends QueryTck {
  @Override
  public Flow.Publisher<EventEnvelope> createFlowPublisher(long elements) {
    return queries.currentEventsByPersistenceId(storedEvents(elements), 0, Long.MAX_VALUE);
  }
}
