package dev.troupe.actor.spi;

import dev.troupe.actor.ActorContext;
import dev.troupe.actor.TimerScheduler;

/**
 * The runtime's actor context, with the operations the API's actor base classes delegate to.
 * Every {@link ActorContext} the runtime hands out implements it.
 */
public interface CellSpi extends ActorContext {
  /**
   * Handles a message no behaviour matched: {@link dev.troupe.actor.Terminated} fails the actor
   * with a {@link dev.troupe.actor.DeathPactException}; anything else is published as {@link
   * dev.troupe.actor.UnhandledMessage}.
   *
   * @param message the message
   */
  void unhandled(Object message);

  /** Stashes the message being processed. */
  void stash();

  /** Returns the oldest stashed message to the front of the mailbox. */
  void unstash();

  /** Returns all stashed messages, in order, to the front of the mailbox. */
  void unstashAll();

  /** @return how many messages the stash holds */
  int stashSize();

  /**
   * Takes the oldest stashed message and hands it to the actor's current behaviour now, on this
   * thread, with its original sender, as if it had just arrived, instead of putting it back in the
   * mailbox: for an actor base class that holds messages while it waits and releases them one at a
   * time (a persistent actor after each write), where {@link #unstashAll()} would move every held
   * message through the mailbox again each time. Only from the actor's own thread, while it handles
   * a message. If the behaviour throws, the exception propagates, and the actor fails with that
   * message as the one being processed.
   *
   * @return false if the stash was empty
   * @throws Exception what the behaviour threw
   */
  boolean deliverStashed() throws Exception;

  /**
   * The actor's timers, for the timer actor base classes; created on first use.
   *
   * @return the cell's timer scheduler
   */
  TimerScheduler timers();
}
