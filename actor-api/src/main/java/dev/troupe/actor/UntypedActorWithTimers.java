package dev.troupe.actor;

/** An {@link UntypedActor} with timers; see {@link AbstractActorWithTimers} and {@link TimerScheduler}. */
public abstract class UntypedActorWithTimers extends UntypedActor {

  /** Binds the instance to its cell. */
  protected UntypedActorWithTimers() {}

  /**
   * This actor's timers; only to be used on the actor's own thread.
   *
   * @return the timer scheduler
   */
  public final TimerScheduler getTimers() {
    return cell().timers();
  }
}
