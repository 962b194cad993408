package dev.troupe.bench.creation;

import dev.troupe.bench.common.Impl;

/**
 * One side of {@code ActorCreation}: a fresh parent actor creates {@code children} children; each
 * child tells the parent "started" from {@code preStart}; the invocation completes when the parent
 * has heard from all of them. The parent (and with it all children) is stopped between invocations,
 * outside the measured time.
 */
public interface CreationDriver {
  /** The {@code impl} spelling of Troupe's typed actors. */
  String TYPED = "troupe-typed";

  /** Starts the system. */
  void setup();

  /**
   * Creates a parent with {@code children} started, idle children and waits for them (bounded).
   *
   * @param children how many
   */
  void spawn(int children);

  /** Stops the last parent and waits until it and its children are gone (bounded); idempotent. */
  void stopParent();

  /** Terminates the system (bounded). */
  void teardown();

  /**
   * @param impl which implementation
   * @return its driver
   */
  static CreationDriver create(Impl impl) {
    return impl == Impl.TROUPE ? new TroupeCreation() : new PekkoCreation(impl);
  }

  /**
   * @param impl an {@link Impl} id, or {@code troupe-typed} (the same actors written as typed
   *     behaviours)
   * @return its driver
   */
  static CreationDriver create(String impl) {
    return TYPED.equals(impl) ? new TypedTroupeCreation() : create(Impl.of(impl));
  }
}
