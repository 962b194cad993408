package dev.troupe.persistence.state;

import java.util.Objects;
import java.util.Optional;

/**
 * The latest change of an object as {@link DurableStateStore#changesByTag} hands it over: its
 * value (empty if the change deleted it), revision, offset and time.
 *
 * @param offset its place among all the store's changes: from 1, higher for each later change
 * @param persistenceId the id of the object
 * @param revision the revision of the change
 * @param value the value stored, or empty if the change was a delete
 * @param timestamp when it was stored, in milliseconds since the epoch
 */
public record DurableStateRecord(long offset, String persistenceId, long revision, Optional<Object> value,
    long timestamp) {
  /** Checks the fields. */
  public DurableStateRecord {
    Objects.requireNonNull(persistenceId, "persistenceId");
    Objects.requireNonNull(value, "value");
    if (offset < 1 || revision < 1) {
      throw new IllegalArgumentException("a change has an offset and a revision of at least 1: offset " + offset
          + ", revision " + revision + " of [" + persistenceId + "]");
    }
  }
}
