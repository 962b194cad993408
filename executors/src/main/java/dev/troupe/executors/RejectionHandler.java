package dev.troupe.executors;

import java.util.concurrent.RejectedExecutionException;

/**
 * Decides what happens to a task whose stripe queue in an {@link AffinityPool} is full (the
 * queue is bounded by {@code taskQueueSize}). A handler must dispose of the task: run it, place
 * it elsewhere, or throw {@link RejectedExecutionException} to the submitter.
 *
 * <p>The built-in handlers never lose a task. {@link #lossless()} is the default.
 */
@FunctionalInterface
public interface RejectionHandler {

  /**
   * Handles a task that did not fit into its stripe's queue. Called on the submitting thread.
   *
   * @param task the task
   * @param stripe the stripe whose queue was full
   * @param pool the pool
   */
  void rejected(Runnable task, int stripe, AffinityPool pool);

  /**
   * The default handler, lossless and never blocking: it tries the other stripes' queues in
   * order; if all are full, a submitter that is not a worker of the pool runs the task itself
   * (natural back-pressure on external producers); a worker instead spills the task into an
   * unbounded overflow queue of the selected stripe (a worker must not block or recurse, and the
   * overflow is drained by the same worker and by thieves).
   *
   * <p>Caller-runs is safe for actor mailboxes: the runtime submits a mailbox only once until it
   * has run, so running it on the caller cannot run it on two threads at once. A task that
   * throws on the caller goes to the pool's error handler, exactly as on a worker.
   *
   * @return the default handler
   */
  static RejectionHandler lossless() {
    return (task, stripe, pool) -> {
      if (pool.offerToOtherStripe(task, stripe)) {
        return;
      }
      if (pool.currentWorkerIndex() < 0) {
        pool.runOnCaller(task);
      } else {
        pool.spill(stripe, task);
      }
    };
  }

  /**
   * A handler that always puts the task into the unbounded overflow queue of its stripe: never
   * blocks, never runs on the caller, but memory is bounded only by the producers.
   *
   * @return the handler
   */
  static RejectionHandler spillToOverflow() {
    return (task, stripe, pool) -> pool.spill(stripe, task);
  }

  /**
   * A handler that throws {@link RejectedExecutionException} to the submitter.
   *
   * @return the handler
   */
  static RejectionHandler abort() {
    return (task, stripe, pool) -> {
      throw new RejectedExecutionException(
          "queue of stripe " + stripe + " of " + pool + " is full; task " + task + " rejected");
    };
  }
}
