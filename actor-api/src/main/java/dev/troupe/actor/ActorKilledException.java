package dev.troupe.actor;

/**
 * The failure of an actor that received {@link Kill}. Deliberate, so an {@link ExpectedFailure}:
 * logged without a stack trace.
 */
public class ActorKilledException extends RuntimeException implements ExpectedFailure {
  private static final long serialVersionUID = 1L;

  /**
   * @param message describes the kill
   */
  public ActorKilledException(String message) {
    super(message);
  }
}
