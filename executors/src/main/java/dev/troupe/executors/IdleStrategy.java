package dev.troupe.executors;

/**
 * What a worker thread does when it finds no work: spin, yield or park. Instances keep per-thread
 * state and are used by one thread only; an {@link AffinityPool} creates one per worker.
 *
 * <p>A strategy may park the thread ({@code LockSupport.park*}): the pool wakes a parked worker
 * with {@code LockSupport.unpark} as soon as work arrives for it, so parking never delays work
 * beyond the wake-up latency.
 */
public interface IdleStrategy {

  /**
   * Idles if {@code workCount} is zero, otherwise resets the strategy.
   *
   * @param workCount the amount of work done in the last duty cycle
   */
  default void idle(int workCount) {
    if (workCount > 0) {
      reset();
    } else {
      idle();
    }
  }

  /** Idles once, escalating (spin, yield, park) on consecutive calls where the strategy does. */
  void idle();

  /** Resets the escalation, to be called when work was found. */
  void reset();
}
