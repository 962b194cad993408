package dev.troupe.actor;

/** Maps a child's failure to a {@link Directive}. */
@FunctionalInterface
public interface Decider {
  /**
   * Decides.
   *
   * @param cause the child's failure
   * @return what to do
   */
  Directive decide(Throwable cause);
}
