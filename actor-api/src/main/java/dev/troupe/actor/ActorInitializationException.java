package dev.troupe.actor;

/**
 * An actor failed while being created: in its constructor, its {@link Creator}, {@code preStart}
 * or {@code postRestart}. By default its supervisor stops it.
 */
public class ActorInitializationException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient ActorRef actor;

  /**
   * @param actor the actor that failed, or {@code null} if it has no ref yet
   * @param message what happened
   * @param cause the failure
   */
  public ActorInitializationException(ActorRef actor, String message, Throwable cause) {
    super((actor == null ? "" : actor.path() + ": ") + message, cause);
    this.actor = actor;
  }

  /** @return the actor that failed, or {@code null} */
  public ActorRef getActor() {
    return actor;
  }
}
