package dev.troupe.actor;

import java.util.Optional;

/**
 * The answer to {@link Identify}.
 *
 * @param correlationId the {@code messageId} of the question
 * @param ref the actor, empty if none was found at the path
 */
public record ActorIdentity(Object correlationId, Optional<ActorRef> ref)
    implements java.io.Serializable {
  /** @return the actor, or {@code null} if none was found */
  public ActorRef getActorRef() {
    return ref.orElse(null);
  }
}
