package dev.troupe.persistence;

/**
 * Sent to a persistent actor when a snapshot could not be saved.
 *
 * @param metadata the snapshot's
 * @param cause why
 */
public record SaveSnapshotFailure(SnapshotMetadata metadata, Throwable cause) {}
