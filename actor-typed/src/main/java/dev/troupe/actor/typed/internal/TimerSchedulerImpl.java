package dev.troupe.actor.typed.internal;

import dev.troupe.actor.typed.javadsl.TimerScheduler;
import java.time.Duration;
import java.util.Objects;

/**
 * Typed timers over the cell's classic timers, which already drop the message of a cancelled or
 * replaced timer even when it is enqueued, and cancel every timer on stop.
 */
final class TimerSchedulerImpl<T> implements TimerScheduler<T> {
  private final dev.troupe.actor.TimerScheduler classic;

  TimerSchedulerImpl(dev.troupe.actor.TimerScheduler classic) {
    this.classic = classic;
  }

  @Override
  public void startSingleTimer(Object key, T msg, Duration delay) {
    classic.startSingleTimer(key, Objects.requireNonNull(msg, "msg"), delay);
  }

  @Override
  public void startTimerWithFixedDelay(Object key, T msg, Duration initialDelay, Duration delay) {
    classic.startTimerWithFixedDelay(key, Objects.requireNonNull(msg, "msg"), initialDelay, delay);
  }

  @Override
  public void startTimerAtFixedRate(Object key, T msg, Duration initialDelay, Duration interval) {
    classic.startTimerAtFixedRate(key, Objects.requireNonNull(msg, "msg"), initialDelay, interval);
  }

  @Override
  public boolean isTimerActive(Object key) {
    return classic.isTimerActive(key);
  }

  @Override
  public void cancel(Object key) {
    classic.cancel(key);
  }

  @Override
  public void cancelAll() {
    classic.cancelAll();
  }
}
