/** Test support for Troupe actors: {@code TestKit}, {@code TestProbe} and a JUnit 5 extension. */
module dev.troupe.testkit {
  requires transitive dev.troupe.actor;
  requires transitive org.junit.jupiter.api;
  // The engine the tests' systems run on: found through ServiceLoader, required so that it is
  // always in the module graph of a test that uses the testkit.
  requires dev.troupe.runtime;

  exports dev.troupe.testkit;

  // Props.create(Class, args) in dev.troupe.actor instantiates the kit's package-private test actor
  // reflectively.
  opens dev.troupe.testkit to dev.troupe.actor;
}
