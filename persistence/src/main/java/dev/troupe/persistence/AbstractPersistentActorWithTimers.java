package dev.troupe.persistence;

import dev.troupe.actor.TimerScheduler;
import dev.troupe.actor.spi.CellSpi;

/**
 * An {@link AbstractPersistentActor} with timers: messages it schedules to itself under a key,
 * cancelled when it restarts or stops. A timer's message is a command: it waits in the stash while
 * the actor recovers or persists, as any other.
 */
public abstract class AbstractPersistentActorWithTimers extends AbstractPersistentActor {
  /** Binds the instance to its cell. */
  protected AbstractPersistentActorWithTimers() {}

  /**
   * This actor's timers; only to be used on the actor's own thread.
   *
   * @return the timer scheduler
   */
  public final TimerScheduler getTimers() {
    return ((CellSpi) getContext()).timers();
  }
}
