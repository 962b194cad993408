package dev.troupe.executors;

/**
 * A task that remembers which stripe (worker thread) of an {@link AffinityPool} it last ran on.
 *
 * <p>The actor runtime's mailbox implements this with a plain {@code int} field: the pool reads
 * the hint to route the task back to the same worker (keeping its caches warm and an actor
 * ping-pong pair on one thread), and writes it when it binds an unbound task to a worker or when
 * a worker steals the task.
 *
 * <h2>Races are benign by design</h2>
 * The hint is read and written without synchronization, from any thread. A plain {@code int}
 * read is atomic in Java, so a reader sees some value that was written, possibly a stale one. A
 * stale or racing hint can only put the task on a different stripe than intended; it can never
 * make the pool run one submission twice (each submission is taken from a queue exactly once) or
 * lose it. Two submissions of the same object could run concurrently only if the submitter
 * submitted it again while it was queued or running; the actor runtime guarantees a mailbox is in
 * at most one queue at a time, so this does not happen there.
 *
 * <p>Implementations should store the value in a plain (non-volatile) field; the pool never
 * relies on its visibility for correctness.
 */
public interface Affine {

  /** The hint value of a task that is not bound to any stripe. */
  int NO_AFFINITY = -1;

  /**
   * Returns the stripe this task is bound to, or {@link #NO_AFFINITY}.
   *
   * @return a stripe index, or {@link #NO_AFFINITY}; values outside {@code [0, parallelism)}
   *     are treated as {@link #NO_AFFINITY}
   */
  int affinity();

  /**
   * Binds this task to a stripe. Called by the pool (from any thread, without synchronization).
   *
   * @param stripe the stripe index, or {@link #NO_AFFINITY}
   */
  void affinity(int stripe);
}
