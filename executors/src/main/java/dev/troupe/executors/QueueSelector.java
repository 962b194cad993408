package dev.troupe.executors;

/**
 * Chooses the stripe (worker queue) of an {@link AffinityPool} that a submitted task goes to.
 *
 * <p>Called on the submitting thread for every {@link AffinityPool#execute(Runnable)}, so it must
 * be thread-safe, fast and allocation-free. It may read and write an {@link Affine} task's hint.
 * The default is {@link #affinityFirst(int)}; the placement rule is described on
 * {@link AffinityPool}.
 */
@FunctionalInterface
public interface QueueSelector {

  /**
   * Selects the stripe for a task.
   *
   * @param task the submitted task, never {@code null}
   * @param pool the pool; use {@link AffinityPool#parallelism()} and
   *     {@link AffinityPool#currentWorkerIndex()} to decide
   * @return a stripe index in {@code [0, pool.parallelism())}; any other value makes
   *     {@code execute} throw {@link IllegalStateException}
   */
  int select(Runnable task, AffinityPool pool);

  /**
   * Returns a new instance of the default selector (the rule documented on {@link AffinityPool}).
   * The returned selector keeps per-pool state: give each pool its own instance.
   *
   * @param fairDistributionThreshold how many distinct tasks are spread round-robin before the
   *     selector switches to hashing; {@code 0..1_048_576}
   * @return a new selector
   * @throws IllegalArgumentException if {@code fairDistributionThreshold} is out of range
   */
  static QueueSelector affinityFirst(int fairDistributionThreshold) {
    return new AffinityFirstSelector(fairDistributionThreshold);
  }
}
