package dev.troupe.actor;

import java.time.Duration;

/**
 * The timers of one actor, from {@link AbstractActorWithTimers#getTimers()} or {@link
 * UntypedActorWithTimers#getTimers()}: messages the actor sends to itself later or periodically,
 * each under a key.
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>starting a timer under a key that is active replaces the old timer;
 *   <li>a message of a cancelled or replaced timer is never received, even if it was already in
 *       the mailbox when the timer was cancelled or replaced;
 *   <li>a single timer is no longer active once its message has been received (inside the handler
 *       of that message {@link #isTimerActive} is already {@code false});
 *   <li>all timers are cancelled when the actor restarts (before {@code preRestart} runs) and when
 *       it stops;
 *   <li>the sender of a timer's message is the actor itself.
 * </ul>
 *
 * <p>Fixed delay and fixed rate differ as follows. {@code startTimerWithFixedDelay} sends the next
 * message {@code delay} after the actor has <em>finished handling</em> the previous one, so at most
 * one message of that timer is ever waiting and a slow handler stretches the period. {@code
 * startTimerAtFixedRate} sends at {@code initialDelay + k * interval} regardless of how fast the
 * actor handles them: when the actor falls behind, messages wait in its mailbox and the average
 * rate is kept (the scheduler does not send a burst for ticks it missed itself, e.g. after a long
 * pause of the whole JVM).
 *
 * <p>Like the actor context, a timer scheduler must only be used from its actor's own thread (its
 * handlers and lifecycle hooks). Timers started after the actor began to stop (e.g. in {@code
 * postStop}) are ignored. Delays are rounded up to the scheduler's tick ({@code
 * troupe.scheduler.tick-duration}); a timer never fires early.
 */
public interface TimerScheduler {

  /**
   * Sends {@code msg} to this actor once, after {@code delay}.
   *
   * @param key identifies the timer; any object with sound {@code equals}/{@code hashCode}
   * @param msg the message
   * @param delay time to wait; zero or negative sends at the next tick
   * @throws NullPointerException if an argument is null
   */
  void startSingleTimer(Object key, Object msg, Duration delay);

  /**
   * Sends {@code msg} to this actor repeatedly: first after {@code delay}, then {@code delay}
   * after each message has been handled.
   *
   * @param key identifies the timer
   * @param msg the message
   * @param delay time between the end of one handling and the next send; must be positive
   * @throws IllegalArgumentException if {@code delay} is not positive
   */
  default void startTimerWithFixedDelay(Object key, Object msg, Duration delay) {
    startTimerWithFixedDelay(key, msg, delay, delay);
  }

  /**
   * Sends {@code msg} to this actor repeatedly: first after {@code initialDelay}, then {@code
   * delay} after each message has been handled.
   *
   * @param key identifies the timer
   * @param msg the message
   * @param initialDelay time before the first send; zero or negative sends at the next tick
   * @param delay time between the end of one handling and the next send; must be positive
   * @throws IllegalArgumentException if {@code delay} is not positive
   */
  void startTimerWithFixedDelay(Object key, Object msg, Duration initialDelay, Duration delay);

  /**
   * Sends {@code msg} to this actor every {@code interval}, the first after {@code interval}.
   *
   * @param key identifies the timer
   * @param msg the message
   * @param interval time between sends; must be positive
   * @throws IllegalArgumentException if {@code interval} is not positive
   */
  default void startTimerAtFixedRate(Object key, Object msg, Duration interval) {
    startTimerAtFixedRate(key, msg, interval, interval);
  }

  /**
   * Sends {@code msg} to this actor at {@code initialDelay + k * interval} for k = 0, 1, 2, ...
   *
   * @param key identifies the timer
   * @param msg the message
   * @param initialDelay time before the first send; zero or negative sends at the next tick
   * @param interval time between sends; must be positive
   * @throws IllegalArgumentException if {@code interval} is not positive
   */
  void startTimerAtFixedRate(Object key, Object msg, Duration initialDelay, Duration interval);

  /**
   * Whether a timer is active under {@code key}: started, not cancelled or replaced, and (for a
   * single timer) its message not yet received.
   *
   * @param key the key
   * @return {@code true} if active
   */
  boolean isTimerActive(Object key);

  /**
   * Cancels the timer under {@code key}, if any; its message will not be received, even if it is
   * already in the mailbox.
   *
   * @param key the key
   */
  void cancel(Object key);

  /** Cancels all timers of this actor; none of their messages will be received. */
  void cancelAll();
}
