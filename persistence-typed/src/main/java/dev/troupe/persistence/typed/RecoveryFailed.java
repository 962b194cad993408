package dev.troupe.persistence.typed;

import dev.troupe.actor.typed.Signal;

/**
 * The signal an event-sourced or durable-state behaviour gets when its recovery failed; the actor
 * then fails with the cause (and stops, unless a supervisor restarts it).
 *
 * @param failure why
 */
public record RecoveryFailed(Throwable failure) implements Signal {}
