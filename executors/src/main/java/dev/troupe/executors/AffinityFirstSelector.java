package dev.troupe.executors;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The default {@link QueueSelector}; the rule is documented on {@link AffinityPool}.
 *
 * <p>Thread roles: {@link #select} runs on any submitting thread. The only shared mutable state
 * is the placement ticket counter (contended only until the threshold is reached) and the
 * insert-only identity cache.
 */
final class AffinityFirstSelector implements QueueSelector {

  static final int MAX_THRESHOLD = 1 << 20;

  private final int threshold;

  /**
   * Tickets handed out to fresh external placements; ticket {@code t < threshold} selects stripe
   * {@code t mod n} (round-robin). Read before incremented, so once saturated the hot path is a
   * plain shared read of a line nobody writes any more.
   */
  private final AtomicInteger tickets = new AtomicInteger();

  /** Stripes of the first {@code threshold} plain (non-{@link Affine}) runnables; null if 0. */
  private final IdentityStripeCache cache;

  AffinityFirstSelector(int threshold) {
    if (threshold < 0 || threshold > MAX_THRESHOLD) {
      throw new IllegalArgumentException(
          "fairDistributionThreshold must be between 0 and " + MAX_THRESHOLD + ", was "
              + threshold);
    }
    this.threshold = threshold;
    this.cache = threshold == 0 ? null : new IdentityStripeCache(threshold);
  }

  @Override
  public int select(Runnable task, AffinityPool pool) {
    int n = pool.parallelism();
    if (task instanceof Affine) {
      Affine affine = (Affine) task;
      // Plain racy read: a stale hint only routes the task to another stripe (see Affine).
      int hint = affine.affinity();
      if (hint >= 0 && hint < n) {
        AffinityWorker home = pool.stripe(hint);
        if (home.thread == Thread.currentThread() || !pool.workStealing) {
          return hint;
        }
        // Submitted by another worker: the task follows it (local push, as in fork-join), so an
        // actor pair that a steal split is re-united by its next message, and no cross-thread
        // wake-up is paid. Keeping the home instead measured 2-10x slower once a pair was split
        // (each message then crosses threads and the home flips between RUNNING and IDLE).
        int caller = pool.currentWorkerIndex();
        if (caller >= 0) {
          affine.affinity(caller);
          return caller;
        }
        return hint;
      }
      int caller = pool.currentWorkerIndex();
      if (caller >= 0) {
        affine.affinity(caller); // local push: bind to the submitting worker
        return caller;
      }
      // External and unbound: spread, but do not bind, so the first worker that submits it binds
      // it to where it actually runs.
      int ticket = ticket();
      return ticket >= 0 ? ticket % n : hashStripe(task, n);
    }
    // Submitted by a worker (typically a task resubmitting itself): it stays on that worker, as
    // in fork-join. The identity map is for external submitters only, and its lookup (a hash and
    // a probe) measured as a third of the cost of a local resubmission.
    int caller = pool.currentWorkerIndex();
    if (caller >= 0) {
      return caller;
    }
    if (cache != null) {
      int cached = cache.get(task);
      if (cached >= 0 && cached < n) {
        return cached;
      }
    }
    int ticket = ticket();
    if (ticket >= 0) {
      int stripe = ticket % n;
      cache.put(task, stripe); // at most `threshold` tickets exist, so the cache stays bounded
      return stripe;
    }
    return hashStripe(task, n);
  }

  /** Returns a round-robin ticket while fewer than {@code threshold} were given, else -1. */
  private int ticket() {
    if (tickets.get() >= threshold) {
      return -1;
    }
    int t = tickets.getAndIncrement(); // racers may overshoot by the number of threads: harmless
    return t < threshold ? t : -1;
  }

  /** A well-mixed hash of the identity, reduced to {@code [0, n)} without a division. */
  static int hashStripe(Object task, int n) {
    int h = mix(System.identityHashCode(task));
    return (int) (((h & 0xFFFF_FFFFL) * n) >>> 32);
  }

  /** The murmur3 32-bit finalizer: every input bit affects every output bit. */
  static int mix(int h) {
    h ^= h >>> 16;
    h *= 0x85eb_ca6b;
    h ^= h >>> 13;
    h *= 0xc2b2_ae35;
    h ^= h >>> 16;
    return h;
  }

  @Override
  public String toString() {
    return "QueueSelector.affinityFirst(" + threshold + ")";
  }
}
