package dev.troupe.persistence.spi;

import java.util.Objects;
import java.util.Set;

/**
 * One event as a journal stores and replays it.
 *
 * @param persistenceId the persistent actor's id
 * @param sequenceNr its place in that actor's history, from 1
 * @param payload the event
 * @param timestamp when it was written, in milliseconds since the epoch (0 where unknown)
 * @param tags the tags it was written with, for {@link Journal#eventsByTag} (empty: none)
 */
public record PersistentRepr(String persistenceId, long sequenceNr, Object payload, long timestamp, Set<String> tags) {
  /** Checks the fields; the tags are copied. */
  public PersistentRepr {
    Objects.requireNonNull(persistenceId, "persistenceId");
    Objects.requireNonNull(payload, "payload");
    if (sequenceNr < 1) {
      throw new IllegalArgumentException("sequenceNr must be at least 1, was " + sequenceNr);
    }
    tags = Set.copyOf(Objects.requireNonNull(tags, "tags"));
  }

  /**
   * An event without tags.
   *
   * @param persistenceId the persistent actor's id
   * @param sequenceNr its place in that actor's history, from 1
   * @param payload the event
   * @param timestamp when it was written, in milliseconds since the epoch (0 where unknown)
   */
  public PersistentRepr(String persistenceId, long sequenceNr, Object payload, long timestamp) {
    this(persistenceId, sequenceNr, payload, timestamp, Set.of());
  }
}
