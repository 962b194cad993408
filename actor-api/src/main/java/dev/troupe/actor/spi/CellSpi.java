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

  /**
   * The actor's timers, for the timer actor base classes; created on first use.
   *
   * @return the cell's timer scheduler
   */
  TimerScheduler timers();
}
