package dev.troupe.executors;

/**
 * The pools of the jcstress tests: built, never started, so that the actors run the workers'
 * protocol methods on jcstress's own threads. No round-robin tickets or identity cache
 * ({@code fairDistributionThreshold(0)}): a submission's path is the placement and the queue only.
 */
final class UnstartedPool {
  private UnstartedPool() {}

  static AffinityPool of(int parallelism) {
    return AffinityPool.builder()
        .parallelism(parallelism)
        .fairDistributionThreshold(0)
        .threadFactory(Thread::new)
        .buildUnstarted();
  }
}
