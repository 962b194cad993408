package dev.troupe.actor;

/** The failure of an actor that received {@link Kill}. */
public class ActorKilledException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message describes the kill
   */
  public ActorKilledException(String message) {
    super(message);
  }
}
