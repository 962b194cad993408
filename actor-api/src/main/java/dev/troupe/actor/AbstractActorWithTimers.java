package dev.troupe.actor;

/**
 * An {@link AbstractActor} with timers: messages it schedules to itself under a key, cancelled
 * when it restarts or stops.
 *
 * <pre>{@code
 * public final class Ticker extends AbstractActorWithTimers {
 *   @Override public void preStart() {
 *     getTimers().startTimerWithFixedDelay("tick", "tick", Duration.ofSeconds(1));
 *   }
 *   @Override public Receive createReceive() {
 *     return receiveBuilder().matchEquals("tick", t -> poll()).build();
 *   }
 * }
 * }</pre>
 *
 * See {@link TimerScheduler} for the guarantees.
 */
public abstract class AbstractActorWithTimers extends AbstractActor {

  /** Binds the instance to its cell. */
  protected AbstractActorWithTimers() {}

  /**
   * This actor's timers; only to be used on the actor's own thread.
   *
   * @return the timer scheduler
   */
  public final TimerScheduler getTimers() {
    return cell().timers();
  }
}
