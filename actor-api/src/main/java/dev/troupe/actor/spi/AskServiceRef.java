package dev.troupe.actor.spi;

/** Implemented by every runtime {@link dev.troupe.actor.ActorRef}: the way from a ref to the
 * {@link AskService} of its system. */
public interface AskServiceRef {
  /** @return the ask service of the system this ref belongs to */
  AskService askService();
}
