package dev.troupe.executors;

/**
 * What a worker thread does when it finds no work: spin, yield or park. Instances keep per-thread
 * state and are used by one thread only; an {@link AffinityPool} creates one per worker.
 *
 * <p>A strategy may park the thread ({@code LockSupport.park*}): the pool wakes a parked worker
 * with {@code LockSupport.unpark} as soon as work arrives for it, so parking never delays work
 * beyond the wake-up latency.
 *
 * <p>Two calls let an {@link AffinityPool} tell a strategy when a deadline is not needed: before
 * each idle step the worker asks {@link #parksNext()}; while the strategy still spins or yields it
 * just calls {@link #idle()}. Once the strategy would park, the worker decides whether it has to
 * come back on its own (it is the pool's lookout for stuck peers, see {@link AffinityPool}): then
 * {@link #idle()}, a park with the strategy's deadline; otherwise {@link #idleUntilWoken()}, which
 * may park with no deadline at all, because the pool unparks the worker when there is work for it.
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

  /**
   * Whether the next {@link #idle()} call would park the thread rather than spin or yield. An
   * {@link AffinityPool} worker decides how to idle only then (the decision reads its peers'
   * state, which a spinning thread should not do on every spin). The default says {@code true}: a
   * strategy that does not say is asked every time.
   *
   * @return true if the next idle step parks
   */
  default boolean parksNext() {
    return true;
  }

  /**
   * Idles once, like {@link #idle()}, for a caller that is unparked ({@code LockSupport.unpark})
   * as soon as there is work for it and needs no wake-up of its own: a strategy that parks may park
   * without a deadline, so that an idle thread costs nothing until work arrives. The default calls
   * {@link #idle()}: a custom strategy keeps its own deadline unless it overrides this.
   */
  default void idleUntilWoken() {
    idle();
  }
}
