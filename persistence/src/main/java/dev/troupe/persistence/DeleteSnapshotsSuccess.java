package dev.troupe.persistence;

/**
 * Sent to a persistent actor when the snapshots the criteria select were deleted.
 *
 * @param criteria which
 */
public record DeleteSnapshotsSuccess(SnapshotSelectionCriteria criteria) {}
