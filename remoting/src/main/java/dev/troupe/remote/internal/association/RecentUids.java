package dev.troupe.remote.internal.association;

import java.util.Arrays;

/**
 * The last {@value #CAPACITY} incarnation uids added, oldest forgotten first: the bounded memory
 * of a peer's incarnations that are over (replaced by a restart, quarantined, retired from the
 * system-message sequence). A peer can make this node add a uid (a new incarnation per
 * connection, without TLS, is one way), so the set must not grow with what it is told; forgetting
 * an old incarnation only means that a connection of an incarnation {@value #CAPACITY} restarts
 * ago is judged like any other restart claim again. Uid 0 (no incarnation) is never added. Not
 * thread-safe: its owner's lock guards it; a ring scanned in full, as it is read only on a
 * handshake or when an incarnation changes, allocated on the first add and grown by doubling, so
 * that the many peers that never restart cost nothing here.
 */
public final class RecentUids {
  /** Uids kept per set. */
  public static final int CAPACITY = 64;

  private static final long[] NONE = new long[0];

  private long[] ring = NONE;
  private int next; // where the next uid goes once the ring is full
  private int size;

  /** @return whether {@code uid} was added and not forgotten since */
  boolean contains(long uid) {
    if (uid == 0) {
      return false;
    }
    for (int i = 0; i < size; i++) {
      if (ring[i] == uid) {
        return true;
      }
    }
    return false;
  }

  /**
   * Adds {@code uid}, forgetting the oldest when full.
   *
   * @return false when it was there already (or is 0)
   */
  boolean add(long uid) {
    if (uid == 0 || contains(uid)) {
      return false;
    }
    if (size < ring.length) {
      ring[size++] = uid;
    } else if (ring.length < CAPACITY) {
      ring = Arrays.copyOf(ring, Math.max(4, ring.length * 2));
      ring[size++] = uid;
    } else {
      ring[next] = uid; // full: overwrite the oldest
      next = (next + 1) % CAPACITY;
    }
    return true;
  }

  /** @return how many uids are kept, at most {@value #CAPACITY} */
  int size() {
    return size;
  }

  /** @return the uids kept, oldest first (to carry them into a new set, see {@link #addAll}) */
  long[] toArray() {
    if (size < CAPACITY) {
      return Arrays.copyOf(ring, size);
    }
    long[] out = new long[size];
    int tail = CAPACITY - next;
    System.arraycopy(ring, next, out, 0, tail);
    System.arraycopy(ring, 0, out, tail, next);
    return out;
  }

  /** Adds {@code uids} in order, as {@link #add} would one by one. */
  void addAll(long[] uids) {
    for (long u : uids) {
      add(u);
    }
  }
}
