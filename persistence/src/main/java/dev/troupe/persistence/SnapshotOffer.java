package dev.troupe.persistence;

/**
 * Given to a persistent actor's recovery behaviour first when recovery starts from a snapshot: the
 * state to start from; the events after it follow.
 *
 * @param metadata whose, up to which event, when
 * @param snapshot the state that was saved
 */
public record SnapshotOffer(SnapshotMetadata metadata, Object snapshot) {}
