package dev.troupe.persistence.typed;

import dev.troupe.actor.typed.Signal;
import dev.troupe.persistence.SnapshotMetadata;

/**
 * The signal an event-sourced behaviour gets when a snapshot its retention criteria took was saved.
 *
 * @param metadata whose, at which event, when
 */
public record SnapshotCompleted(SnapshotMetadata metadata) implements Signal {}
