package dev.troupe.bench.common;

/** Messages of {@code ExecutorComparison}: a query actor asking a service actor, one at a time. */
public final class QueryMessages {
  /** Keys the service holds: 0 .. KEYS-1. */
  public static final int KEYS = 1024;

  private QueryMessages() {}

  /** Starts one invocation on a query actor. */
  public record Start(Completion done, int queries) {}

  /** A lookup. */
  public record Query(int key) {}

  /** The service's reply. */
  public record Answer(int key, int value) {}
}
