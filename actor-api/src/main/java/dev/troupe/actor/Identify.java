package dev.troupe.actor;

/**
 * Asks an actor (usually through an {@link ActorSelection}) for its ref: every actor answers with
 * {@link ActorIdentity}, carrying {@code messageId} back; a path with no actor answers with an
 * empty identity.
 *
 * @param messageId a correlation value of the caller's choosing
 */
public record Identify(Object messageId) implements java.io.Serializable {}
