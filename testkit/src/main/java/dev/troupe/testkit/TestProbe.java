package dev.troupe.testkit;

import dev.troupe.actor.ActorSystem;

/**
 * A {@link TestKit} used as a stand-in actor: pass {@link #getRef()} where an actor is expected and
 * assert on what it receives. Create as many as a test needs.
 */
public class TestProbe extends TestKit {
  private static final java.util.concurrent.atomic.AtomicInteger COUNTER =
      new java.util.concurrent.atomic.AtomicInteger();

  /**
   * A probe with a generated name.
   *
   * @param system the system under test
   */
  public TestProbe(ActorSystem system) {
    this(system, "testProbe-" + COUNTER.incrementAndGet());
  }

  /**
   * A probe whose actor has the given name under {@code /user}.
   *
   * @param system the system under test
   * @param name the name
   */
  public TestProbe(ActorSystem system, String name) {
    super(system, name);
  }
}
