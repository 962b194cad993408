package dev.troupe.persistence;

/**
 * Sent to a persistent actor when a snapshot could not be deleted.
 *
 * @param metadata the snapshot's
 * @param cause why
 */
public record DeleteSnapshotFailure(SnapshotMetadata metadata, Throwable cause) {}
