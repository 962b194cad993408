package dev.troupe.persistence.query;

import java.util.concurrent.Flow;

/**
 * The TCK against the live {@code eventsByPersistenceId}, bounded by the last event's number so
 * that the stream ends (a query that has caught up polls, so the test runs its refresh path too
 * where a read comes back short).
 */
public class LiveEventsTckTest extends QueryTck {
  @Override
  public Flow.Publisher<EventEnvelope> createFlowPublisher(long elements) {
    return queries.eventsByPersistenceId(storedEvents(elements), 0, elements);
  }
}
