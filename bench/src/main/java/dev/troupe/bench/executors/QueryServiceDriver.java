package dev.troupe.bench.executors;

import dev.troupe.bench.common.Impl;

/**
 * One side of {@code ExecutorComparison}: {@code pairs} query/service actor pairs on one dispatcher
 * with the chosen executor. The query actor sends a query, the service looks it up in its {@code
 * HashMap<Integer, Integer>} and replies, the query actor checks the answer and sends the next
 * query.
 */
public interface QueryServiceDriver {

  /**
   * Starts the system and the actors.
   *
   * @param executor the executor family
   * @param threads its thread count
   * @param throughput the dispatcher's throughput
   * @param pairs query/service pairs
   */
  void setup(ExecutorKind executor, int threads, int throughput, int pairs);

  /**
   * Runs one invocation and waits for it (bounded).
   *
   * @param queriesPerPair queries each query actor makes
   */
  void runIteration(int queriesPerPair);

  /**
   * @return the actor system's name, the prefix of all its threads' names
   */
  String systemName();

  /** Terminates the system (bounded). */
  void teardown();

  /**
   * @param impl which implementation
   * @return its driver
   */
  static QueryServiceDriver create(Impl impl) {
    return impl == Impl.TROUPE ? new TroupeQueryService() : new PekkoQueryService();
  }
}
