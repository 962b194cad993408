package dev.troupe.actor;

/** Fails {@link ActorSelection#resolveOne} when no actor matches. */
public class ActorNotFound extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param selection the selection that matched nothing
   */
  public ActorNotFound(ActorSelection selection) {
    super("actor not found for: " + selection);
  }

  /**
   * @param selection the selection that could not be resolved
   * @param cause why it is known that no actor answers (for instance a {@link
   *     dev.troupe.pattern.AskFailedException} saying the other node refused the connection); its
   *     message is part of this one
   */
  public ActorNotFound(ActorSelection selection, Throwable cause) {
    super("actor not found for: " + selection + ": " + cause.getMessage(), cause);
  }
}
