package dev.troupe.executors;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * An insert-only, lock-free identity map from a task to its stripe, for at most a fixed number
 * of tasks (the caller guarantees it never inserts more). Open addressing with linear probing in
 * a table at least twice the capacity, so a probe always ends at an empty slot. Keys are weakly
 * held: a cached task can still be collected; its slot then stays as a dead entry, which keeps
 * the memory bound (capacity entries, ever).
 *
 * <p>Any thread may call {@link #get} and {@link #put}. Entries are immutable and published with
 * a CAS (volatile write); readers load slots with acquire, which is enough to see the entry's
 * final fields and referent.
 */
final class IdentityStripeCache {

  private static final class Entry extends WeakReference<Object> {
    final int stripe;

    Entry(Object key, int stripe) {
      super(key);
      this.stripe = stripe;
    }
  }

  private final AtomicReferenceArray<Entry> table;
  private final int mask;

  IdentityStripeCache(int capacity) {
    int size = Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) << 1; // >= 2 * capacity
    this.table = new AtomicReferenceArray<>(size);
    this.mask = size - 1;
  }

  /** Returns the cached stripe of {@code key}, or -1. */
  int get(Object key) {
    for (int i = AffinityFirstSelector.mix(System.identityHashCode(key)) & mask; ; i = (i + 1) & mask) {
      Entry e = table.getAcquire(i); // acquire: pairs with the publishing CAS
      if (e == null) {
        return -1;
      }
      if (e.get() == key) {
        return e.stripe;
      }
    }
  }

  /** Caches {@code key}'s stripe unless it is already cached. */
  void put(Object key, int stripe) {
    Entry fresh = null;
    for (int i = AffinityFirstSelector.mix(System.identityHashCode(key)) & mask; ; i = (i + 1) & mask) {
      Entry e = table.getAcquire(i); // acquire: pairs with the publishing CAS
      if (e == null) {
        if (fresh == null) {
          fresh = new Entry(key, stripe);
        }
        if (table.compareAndSet(i, null, fresh)) { // volatile write publishes the entry
          return;
        }
        e = table.getAcquire(i); // lost the slot: look at the winner, then probe on
      }
      if (e.get() == key) {
        return;
      }
    }
  }
}
