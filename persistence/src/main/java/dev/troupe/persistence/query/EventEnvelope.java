package dev.troupe.persistence.query;

import java.util.Objects;

/**
 * One event as a query hands it over.
 *
 * @param offset where the event is in its stream: resume a query after it
 * @param persistenceId the id of the actor that wrote it
 * @param sequenceNr its number among that actor's events
 * @param event the event
 * @param timestamp when it was written, in milliseconds since the epoch (0 if the journal does not
 *     keep it)
 */
public record EventEnvelope(Offset offset, String persistenceId, long sequenceNr, Object event, long timestamp) {
  /** Checks that nothing is missing. */
  public EventEnvelope {
    Objects.requireNonNull(offset, "offset");
    Objects.requireNonNull(persistenceId, "persistenceId");
    Objects.requireNonNull(event, "event");
  }
}
