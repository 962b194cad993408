package dev.troupe.persistence;

/**
 * Sent to a persistent actor when snapshots could not be deleted.
 *
 * @param criteria which
 * @param cause why
 */
public record DeleteSnapshotsFailure(SnapshotSelectionCriteria criteria, Throwable cause) {}
