/**
 * Test support for typed actors: {@code ActorTestKit} and {@code TestProbe<M>} for tests with a real
 * system, {@code BehaviorTestKit} and {@code TestInbox<T>} for synchronous tests of one behaviour,
 * and a JUnit 5 extension.
 */
module dev.troupe.testkit.typed {
  requires transitive dev.troupe.actor.typed;
  requires transitive org.junit.jupiter.api;
  // The probes are the classic testkit's test actors; its timeouts (troupe.test.*) apply.
  requires dev.troupe.testkit;

  exports dev.troupe.testkit.typed;
}
