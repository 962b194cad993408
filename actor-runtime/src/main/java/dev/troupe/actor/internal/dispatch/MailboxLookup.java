package dev.troupe.actor.internal.dispatch;

import dev.troupe.actor.ActorRef;

/**
 * Owns the way from an actor ref to its mailbox, for code that reads load hints but not refs.
 *
 * <p>The runtime, which knows its ref classes, implements it and hands it to routing, so that
 * routing depends on this package only, never on the runtime package that depends on routing.
 */
@FunctionalInterface
public interface MailboxLookup {
  /**
   * O(1), any thread.
   *
   * @param ref a ref
   * @return its mailbox, or {@code null} if it is not a local actor's ref
   */
  Mailbox mailboxOf(ActorRef ref);
}
