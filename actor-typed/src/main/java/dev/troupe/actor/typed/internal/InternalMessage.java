package dev.troupe.actor.typed.internal;

/**
 * A message Troupe sends to a typed actor for itself (adapted messages, piped results, a backoff's
 * end): the actor runs it instead of handing it to the behaviour.
 */
public interface InternalMessage {
  /**
   * Runs in the actor.
   *
   * @param actor the actor
   */
  void deliver(TypedActor<?> actor);
}
