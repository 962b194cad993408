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
}
