package dev.troupe.actor;

/**
 * Thrown by {@code stash()} when the stash holds {@code troupe.actor.stash-capacity} messages
 * already. It fails the actor like any exception from a handler.
 */
public class StashOverflowException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** @param message names the actor and the capacity */
  public StashOverflowException(String message) {
    super(message);
  }
}
