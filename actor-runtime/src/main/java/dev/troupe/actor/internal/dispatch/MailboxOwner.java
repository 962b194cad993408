package dev.troupe.actor.internal.dispatch;

import dev.troupe.runtime.spi.SystemMessage;

/** What a mailbox runs: the actor cell. All methods are called on the mailbox's running thread. */
public interface MailboxOwner {
  /**
   * Processes one user message. Must not throw: failures go to supervision.
   *
   * @param envelope the message; the owner clears it when done
   */
  void invoke(Envelope envelope);

  /**
   * Processes one system message, also after the mailbox closed.
   *
   * @param message the message
   */
  void systemInvoke(SystemMessage message);

  /**
   * Routes a user message that can no longer be processed (closed or full mailbox) to dead
   * letters. May be called on any thread.
   *
   * @param message the message
   * @param sender its sender
   * @param mailboxFull true when a full bounded mailbox refused it, false when the mailbox was
   *     closed (its actor terminated)
   */
  void deadLetter(Object message, dev.troupe.actor.ActorRef sender, boolean mailboxFull);

  /** @return what runs in this mailbox, for diagnostics (an actor's path and class); any thread */
  default String describe() {
    return toString();
  }
}
