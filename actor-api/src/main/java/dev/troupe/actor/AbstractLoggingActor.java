package dev.troupe.actor;

/**
 * An {@link AbstractActor} by the name Pekko's Java API gives an actor with a logger. Every Troupe
 * actor already has one ({@link #log()}, the actor's path in its MDC), so this class adds nothing:
 * it lets code moving from Pekko keep {@code extends AbstractLoggingActor} while it moves.
 */
public abstract class AbstractLoggingActor extends AbstractActor {
  /** For subclasses. */
  protected AbstractLoggingActor() {}
}
