package dev.troupe.persistence.spi;

import java.util.Objects;

/**
 * One event as a journal stores and replays it.
 *
 * @param persistenceId the persistent actor's id
 * @param sequenceNr its place in that actor's history, from 1
 * @param payload the event
 * @param timestamp when it was written, in milliseconds since the epoch (0 where unknown)
 */
public record PersistentRepr(String persistenceId, long sequenceNr, Object payload, long timestamp) {
  /** Checks the fields. */
  public PersistentRepr {
    Objects.requireNonNull(persistenceId, "persistenceId");
    Objects.requireNonNull(payload, "payload");
    if (sequenceNr < 1) {
      throw new IllegalArgumentException("sequenceNr must be at least 1, was " + sequenceNr);
    }
  }
}
