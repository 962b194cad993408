package dev.troupe.executors;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

// Padded so that idle transitions (frequent in a lightly loaded pool) do not invalidate the
// cache lines of the pool's read-mostly fields or of any worker.

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

  static {
    try {
      COUNT = MethodHandles.lookup().findVarHandle(IdleWorkersField.class, "count", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  long count; // only through the accessors of IdleWorkers
}

/**
 * How many workers are in state IDLE and not yet signalled. Incremented by a worker entering
 * IDLE, decremented by whoever moves it out of IDLE. Only a hint for work-stealing wake-ups:
 * correctness of wake-ups never depends on it.
 */
final class IdleWorkers extends IdleWorkersField {
  long p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;

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
}
