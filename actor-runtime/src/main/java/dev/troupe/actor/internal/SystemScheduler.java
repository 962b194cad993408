package dev.troupe.actor.internal;

import dev.troupe.actor.Cancellable;
import dev.troupe.actor.Scheduler;
import dev.troupe.actor.internal.scheduler.HashedWheelScheduler;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The scheduler a system hands out: its timer wheel, except that once the system has terminated
 * (and closed the wheel) every call throws an {@link IllegalStateException} naming the system
 * rather than the wheel's own "closed".
 */
final class SystemScheduler implements Scheduler {
  private final HashedWheelScheduler wheel;
  private final ActorSystemImpl system;

  SystemScheduler(HashedWheelScheduler wheel, ActorSystemImpl system) {
    this.wheel = wheel;
    this.system = system;
  }

  @Override
  public Cancellable scheduleOnce(Duration delay, Runnable task, Executor executor) {
    return schedule(() -> wheel.scheduleOnce(delay, task, executor));
  }

  @Override
  public Cancellable scheduleAtFixedRate(
      Duration initialDelay, Duration interval, Runnable task, Executor executor) {
    return schedule(() -> wheel.scheduleAtFixedRate(initialDelay, interval, task, executor));
  }

  @Override
  public Cancellable scheduleWithFixedDelay(
      Duration initialDelay, Duration delay, Runnable task, Executor executor) {
    return schedule(() -> wheel.scheduleWithFixedDelay(initialDelay, delay, task, executor));
  }

  private Cancellable schedule(Supplier<Cancellable> call) {
    system.checkNotTerminated();
    try {
      return call.get();
    } catch (IllegalStateException closed) {
      // the wheel closes while the system finishes terminating, just before it reports terminated
      if (system.isTerminating()) {
        throw system.terminatedException();
      }
      throw closed;
    }
  }

  /** For tests: the wheel's pending timers (cancelled ones count until unlinked, within a tick). */
  int pendingTimers() {
    return wheel.pendingTimers();
  }

  @Override
  public String toString() {
    return wheel.toString();
  }
}
