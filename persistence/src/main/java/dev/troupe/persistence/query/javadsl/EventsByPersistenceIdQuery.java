package dev.troupe.persistence.query.javadsl;

import dev.troupe.persistence.query.EventEnvelope;
import java.util.concurrent.Flow;

/** A read journal that streams one actor's events, those stored now and those stored later. */
public interface EventsByPersistenceIdQuery extends ReadJournal {
  /**
   * The events of one persistent actor in order of their sequence numbers, deleted ones left
   * out; the stream goes on with events stored after it started and completes only after the event
   * numbered {@code toSequenceNr} (never, for {@code Long.MAX_VALUE}) or when cancelled.
   *
   * @param persistenceId the actor's id
   * @param fromSequenceNr the lowest sequence number to hand over (0 or 1 for all)
   * @param toSequenceNr the highest
   * @return a publisher; each subscription reads on its own
   */
  Flow.Publisher<EventEnvelope> eventsByPersistenceId(String persistenceId, long fromSequenceNr, long toSequenceNr);
}
