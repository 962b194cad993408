package dev.troupe.actor;

/** Thrown when an actor name is invalid or already taken among its siblings. */
public class InvalidActorNameException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what is wrong with the name
   */
  public InvalidActorNameException(String message) {
    super(message);
  }
}
