package dev.troupe.persistence;

import java.util.Objects;

/**
 * Which actor a snapshot is of, after which event, and when it was taken.
 *
 * @param persistenceId the persistent actor's id
 * @param sequenceNr the sequence number of the last event the snapshot includes
 * @param timestamp when it was taken, in milliseconds since the epoch (0: any, when deleting)
 */
public record SnapshotMetadata(String persistenceId, long sequenceNr, long timestamp) {
  /** Checks the fields. */
  public SnapshotMetadata {
    Objects.requireNonNull(persistenceId, "persistenceId");
    if (sequenceNr < 0 || timestamp < 0) {
      throw new IllegalArgumentException("sequenceNr and timestamp must not be negative, were " + sequenceNr + ", " + timestamp);
    }
  }
}
