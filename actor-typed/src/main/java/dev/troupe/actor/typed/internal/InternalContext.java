package dev.troupe.actor.typed.internal;

import dev.troupe.actor.Cancellable;
import dev.troupe.actor.typed.javadsl.TimerScheduler;
import java.time.Duration;

/**
 * What Troupe's own behaviours (timers, stash, supervision) need from a context beyond the public
 * {@link dev.troupe.actor.typed.javadsl.ActorContext}; the testkit's synchronous context implements
 * it too.
 *
 * @param <T> the type of message the actor accepts
 */
public interface InternalContext<T> {
  /**
   * @param ctx a context made by Troupe (a running actor's or the testkit's)
   * @param <T> what the actor accepts
   * @return its internal side
   */
  @SuppressWarnings("unchecked")
  static <T> InternalContext<T> of(dev.troupe.actor.typed.javadsl.ActorContext<T> ctx) {
    return (InternalContext<T>) ctx;
  }

  /** @return the actor's timers (made on first use) */
  TimerScheduler<T> timers();

  /** Cancels every timer, if any was made (on a restart). */
  void cancelAllTimers();

  /**
   * Sends one of Troupe's internal messages to this actor after a delay.
   *
   * @param delay the delay
   * @param message the internal message
   * @return a handle to cancel it
   */
  Cancellable scheduleToSelf(Duration delay, InternalMessage message);

  /**
   * Reports a message no behaviour handled.
   *
   * @param message the message
   */
  void unhandled(Object message);

  /**
   * Hands a message that cannot be kept to dead letters.
   *
   * @param message the message
   */
  void deadLetter(Object message);
}
