package dev.troupe.actor;

/**
 * A handle to a scheduled task that can be cancelled.
 *
 * <p>Cancellation is idempotent and safe from any thread. Once {@link #cancel()} returned
 * {@code true} the task will not start again; an execution that already began runs to its end.
 */
public interface Cancellable {

  /**
   * Cancels the task.
   *
   * @return {@code true} if this call cancelled it, {@code false} if it was already cancelled or,
   *     for a one-shot task, already ran
   */
  boolean cancel();

  /**
   * Whether the task was cancelled.
   *
   * @return {@code true} once {@link #cancel()} succeeded
   */
  boolean isCancelled();

  /**
   * A handle that is already cancelled; useful as an initial value.
   *
   * @return a cancelled handle
   */
  static Cancellable cancelled() {
    return CancelledHandle.INSTANCE;
  }
}

/** The shared already-cancelled handle. */
enum CancelledHandle implements Cancellable {
  INSTANCE;

  @Override
  public boolean cancel() {
    return false;
  }

  @Override
  public boolean isCancelled() {
    return true;
  }
}
