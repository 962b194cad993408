package dev.troupe.actor.internal;

/** Thrown by {@code stash()} when the stash is at its configured capacity. */
final class StashOverflowException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  StashOverflowException(String message) {
    super(message);
  }
}
