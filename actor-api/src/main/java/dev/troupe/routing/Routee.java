package dev.troupe.routing;

import dev.troupe.actor.ActorRef;

/**
 * A destination a router sends to: an actor ref ({@link ActorRefRoutee}) or a path ({@link
 * ActorSelectionRoutee}). Implementations must be thread-safe values with equality, since routers
 * keep them in immutable snapshots read by many senders and remove them by equality ({@link
 * RemoveRoutee}).
 */
public interface Routee {
  /**
   * Sends a message to this routee; called in the sender's thread, so it must not block.
   *
   * @param message the message
   * @param sender the original sender, or {@code null}
   */
  void send(Object message, ActorRef sender);
}
