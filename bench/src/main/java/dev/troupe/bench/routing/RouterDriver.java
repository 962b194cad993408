package dev.troupe.bench.routing;

import dev.troupe.bench.common.Impl;

/**
 * One side of {@code RouterOverhead}: the benchmark thread sends jobs either straight to one actor
 * or to a round-robin pool router with {@code routees} routees; every target first gets an {@code
 * Expect} (through {@code Broadcast} for a router) and completes after its share. A balancing pool
 * gets one {@code SharedJob} per job instead, counted down by whichever routee takes it.
 */
public interface RouterDriver {

  /**
   * Starts the system and the target.
   *
   * @param routees 0 for a direct ref to one actor, else the pool size
   * @param balancing a {@code BalancingPool} instead of a {@code RoundRobinPool}
   */
  void setup(int routees, boolean balancing);

  /**
   * Sends {@code jobs} jobs and waits until all were processed (bounded).
   *
   * @param jobs how many; divisible by the pool size
   */
  void runIteration(int jobs);

  /** Terminates the system (bounded). */
  void teardown();

  /**
   * @param impl which implementation
   * @return its driver
   */
  static RouterDriver create(Impl impl) {
    return impl == Impl.TROUPE ? new TroupeRouter() : new PekkoRouter(impl);
  }
}
