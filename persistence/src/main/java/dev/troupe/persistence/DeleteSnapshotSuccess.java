package dev.troupe.persistence;

/**
 * Sent to a persistent actor when a snapshot was deleted.
 *
 * @param metadata the snapshot's
 */
public record DeleteSnapshotSuccess(SnapshotMetadata metadata) {}
