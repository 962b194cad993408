package dev.troupe.persistence;

/**
 * Sent to a persistent actor when a snapshot was saved.
 *
 * @param metadata the snapshot's
 */
public record SaveSnapshotSuccess(SnapshotMetadata metadata) {}
