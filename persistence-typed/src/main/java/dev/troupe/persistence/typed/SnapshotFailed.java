package dev.troupe.persistence.typed;

import dev.troupe.actor.typed.Signal;
import dev.troupe.persistence.SnapshotMetadata;

/**
 * The signal an event-sourced behaviour gets when a snapshot could not be saved; the actor goes on
 * (its events are stored: recovery just replays more of them).
 *
 * @param metadata whose, at which event
 * @param failure why
 */
public record SnapshotFailed(SnapshotMetadata metadata, Throwable failure) implements Signal {}
