package dev.troupe.actor;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Runs tasks and sends messages after a delay or periodically.
 *
 * <p>The scheduler is built for many short-lived timers (receive timeouts, ask timeouts): it has
 * one timer thread per actor system, and a task is only <em>handed</em> to the given executor
 * when it is due, so a slow task never delays other timers. Its resolution is the tick duration
 * ({@code troupe.scheduler.tick-duration}); a delay is rounded up to whole ticks and never fires
 * early.
 *
 * <p>Periodic tasks: {@code scheduleAtFixedRate} aims at {@code initialDelay + k * interval} and
 * does not catch up on missed runs in a burst; {@code scheduleWithFixedDelay} waits
 * {@code delay} after each run has finished.
 *
 * <p>Once its actor system has terminated, a system's scheduler takes no more tasks: every {@code
 * schedule...} method throws an {@link IllegalStateException} naming the system.
 */
public interface Scheduler {

  /**
   * Runs {@code task} on {@code executor} once, after {@code delay}.
   *
   * @param delay time to wait; zero or negative runs at the next tick
   * @param task the task
   * @param executor where the task runs
   * @return a handle to cancel it
   */
  Cancellable scheduleOnce(Duration delay, Runnable task, Executor executor);

  /**
   * Runs {@code task} on {@code executor} at a fixed rate.
   *
   * @param initialDelay time before the first run
   * @param interval time between the starts of consecutive runs; must be positive
   * @param task the task
   * @param executor where the task runs
   * @return a handle to cancel it
   */
  Cancellable scheduleAtFixedRate(
      Duration initialDelay, Duration interval, Runnable task, Executor executor);

  /**
   * Runs {@code task} on {@code executor} repeatedly, with {@code delay} between the end of one run
   * and the start of the next.
   *
   * @param initialDelay time before the first run
   * @param delay time between runs; must be positive
   * @param task the task
   * @param executor where the task runs
   * @return a handle to cancel it
   */
  Cancellable scheduleWithFixedDelay(
      Duration initialDelay, Duration delay, Runnable task, Executor executor);

  /**
   * Sends {@code message} to {@code receiver} once, after {@code delay}.
   *
   * @param delay time to wait
   * @param receiver the recipient
   * @param message the message
   * @param executor where the send runs (usually {@code system.dispatcher()})
   * @param sender the sender the recipient sees, or {@link ActorRef#noSender()}
   * @return a handle to cancel it
   */
  default Cancellable scheduleOnce(
      Duration delay, ActorRef receiver, Object message, Executor executor, ActorRef sender) {
    return scheduleOnce(delay, sendTask(receiver, message, sender), executor);
  }

  /**
   * Sends {@code message} to {@code receiver} at a fixed rate.
   *
   * @param initialDelay time before the first send
   * @param interval time between sends
   * @param receiver the recipient
   * @param message the message
   * @param executor where the send runs
   * @param sender the sender the recipient sees
   * @return a handle to cancel it
   */
  default Cancellable scheduleAtFixedRate(
      Duration initialDelay,
      Duration interval,
      ActorRef receiver,
      Object message,
      Executor executor,
      ActorRef sender) {
    return scheduleAtFixedRate(initialDelay, interval, sendTask(receiver, message, sender), executor);
  }

  /**
   * Sends {@code message} to {@code receiver} repeatedly, {@code delay} apart.
   *
   * @param initialDelay time before the first send
   * @param delay time between sends
   * @param receiver the recipient
   * @param message the message
   * @param executor where the send runs
   * @param sender the sender the recipient sees
   * @return a handle to cancel it
   */
  default Cancellable scheduleWithFixedDelay(
      Duration initialDelay,
      Duration delay,
      ActorRef receiver,
      Object message,
      Executor executor,
      ActorRef sender) {
    return scheduleWithFixedDelay(initialDelay, delay, sendTask(receiver, message, sender), executor);
  }

  private static Runnable sendTask(ActorRef receiver, Object message, ActorRef sender) {
    Objects.requireNonNull(receiver, "receiver");
    Objects.requireNonNull(message, "message");
    return () -> receiver.tell(message, sender);
  }
}
