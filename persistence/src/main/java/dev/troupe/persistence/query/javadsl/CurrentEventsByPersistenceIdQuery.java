package dev.troupe.persistence.query.javadsl;

import dev.troupe.persistence.query.EventEnvelope;
import java.util.concurrent.Flow;

/** A read journal that hands over the events one actor has stored so far. */
public interface CurrentEventsByPersistenceIdQuery extends ReadJournal {
  /**
   * As {@link EventsByPersistenceIdQuery#eventsByPersistenceId}, but the stream completes once it
   * has handed over the events stored when it was subscribed to (those up to the highest sequence
   * number then).
   *
   * @param persistenceId the actor's id
   * @param fromSequenceNr the lowest sequence number to hand over (0 or 1 for all)
   * @param toSequenceNr the highest
   * @return a publisher; each subscription reads on its own
   */
  Flow.Publisher<EventEnvelope> currentEventsByPersistenceId(
      String persistenceId, long fromSequenceNr, long toSequenceNr);
}
