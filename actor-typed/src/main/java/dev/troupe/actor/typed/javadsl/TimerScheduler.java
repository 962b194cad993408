package dev.troupe.actor.typed.javadsl;

import java.time.Duration;

/**
 * Timers that send messages to the actor itself, from {@code Behaviors.withTimers}. Each timer has
 * a key: starting a timer under a key that is active replaces it, and the message of a cancelled or
 * replaced timer is never received, even if it was already enqueued. Timers are cancelled when the
 * actor stops or restarts. Use only on the actor's thread.
 *
 * @param <T> the type of message the actor accepts
 */
public interface TimerScheduler<T> {
  /**
   * Sends {@code msg} once after {@code delay}.
   *
   * @param key the timer's key
   * @param msg the message
   * @param delay the delay
   */
  void startSingleTimer(Object key, T msg, Duration delay);

  /**
   * {@link #startSingleTimer(Object, Object, Duration)} with the message as its own key.
   *
   * @param msg the message and key
   * @param delay the delay
   */
  default void startSingleTimer(T msg, Duration delay) {
    startSingleTimer(msg, msg, delay);
  }

  /**
   * Sends {@code msg} every {@code delay} after the previous one was sent.
   *
   * @param key the timer's key
   * @param msg the message
   * @param delay the delay, also the first one
   */
  default void startTimerWithFixedDelay(Object key, T msg, Duration delay) {
    startTimerWithFixedDelay(key, msg, delay, delay);
  }

  /**
   * Sends {@code msg} after {@code initialDelay}, then every {@code delay} after the previous one.
   *
   * @param key the timer's key
   * @param msg the message
   * @param initialDelay the first delay
   * @param delay the delay between sends
   */
  void startTimerWithFixedDelay(Object key, T msg, Duration initialDelay, Duration delay);

  /**
   * Sends {@code msg} at a fixed rate.
   *
   * @param key the timer's key
   * @param msg the message
   * @param interval the period, also the first delay
   */
  default void startTimerAtFixedRate(Object key, T msg, Duration interval) {
    startTimerAtFixedRate(key, msg, interval, interval);
  }

  /**
   * Sends {@code msg} after {@code initialDelay}, then at a fixed rate.
   *
   * @param key the timer's key
   * @param msg the message
   * @param initialDelay the first delay
   * @param interval the period
   */
  void startTimerAtFixedRate(Object key, T msg, Duration initialDelay, Duration interval);

  /**
   * @param key a timer's key
   * @return whether that timer is active (a single timer stops being active once its message is
   *     received)
   */
  boolean isTimerActive(Object key);

  /**
   * Cancels a timer; its message is not received even if already enqueued.
   *
   * @param key the timer's key
   */
  void cancel(Object key);

  /** Cancels every timer. */
  void cancelAll();
}
