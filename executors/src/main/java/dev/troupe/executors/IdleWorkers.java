package dev.troupe.executors;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

// Padded so that idle transitions (frequent in a lightly loaded pool) do not invalidate the
// cache lines of the pool's read-mostly fields or of any worker. The lookout word shares the line
// with the count on purpose: a worker that reads it when it starts running has usually just
// decremented the count, so the line is already in its cache.

abstract class IdleWorkersPad0 {
  long p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
  /**
   * Fills the 4-byte gap after a compressed object header, which the field layout (JDK 15+)
   * would otherwise give to an int or a reference of a later layer, in front of the pad.
   */
  int p016;
}

abstract class IdleWorkersField extends IdleWorkersPad0 {
  static final VarHandle COUNT;
  static final VarHandle LOOKOUT;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      COUNT = lookup.findVarHandle(IdleWorkersField.class, "count", long.class);
      LOOKOUT = lookup.findVarHandle(IdleWorkersField.class, "lookout", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  long count; // only through the accessors of IdleWorkers
  int lookout = IdleWorkers.NO_LOOKOUT; // only through the accessors of IdleWorkers
}

/**
 * The pool's idle bookkeeping: how many workers are in state IDLE and not yet signalled, and which
 * idle worker, if any, is the <em>lookout</em>.
 *
 * <p>The count is incremented by a worker entering IDLE and decremented by whoever moves it out of
 * IDLE. It is a hint for work-stealing wake-ups; the wake-up of a worker that has work in its own
 * queues never depends on it.
 *
 * <p>The lookout is the one idle worker that parks with a deadline while some peer is busy, to
 * steal from a peer stuck in a long task (see {@link AffinityWorker}); every other idle worker
 * parks until woken. Taken and given back by CAS; see {@link AffinityWorker#idlesWithDeadline} for
 * the handshake that keeps a lookout present while any worker runs.
 */
final class IdleWorkers extends IdleWorkersField {
  long p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;

  /** The value of the lookout word when no worker is the lookout. */
  static final int NO_LOOKOUT = -1;

  /** Volatile load: a busy worker's cheap check whether any peer could help. */
  long lv() {
    return (long) COUNT.getVolatile(this);
  }

  /** Atomic add (volatile semantics). */
  void increment() {
    COUNT.getAndAdd(this, 1L);
  }

  /** Atomic add (volatile semantics). */
  void decrement() {
    COUNT.getAndAdd(this, -1L);
  }

  /**
   * Volatile load: one half of the lookout handshake (a worker that has just published RUNNING
   * reads it; an idle worker reads it after publishing IDLE), so it must not move before the
   * reader's own volatile store.
   */
  int lvLookout() {
    return (int) LOOKOUT.getVolatile(this);
  }

  /** CAS (volatile semantics): taking the role (from NO_LOOKOUT) or giving it back (to it). */
  boolean casLookout(int expect, int update) {
    return LOOKOUT.compareAndSet(this, expect, update);
  }
}
