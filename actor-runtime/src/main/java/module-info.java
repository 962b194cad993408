/**
 * Troupe's engine: the actor system implementation behind {@code dev.troupe.actor}.
 *
 * <p>Three tiers. API: {@code dev.troupe.dispatch}, for everyone. SPI: {@code
 * dev.troupe.runtime.spi}, where a transport or a cluster plugs in (ref providers, internal refs,
 * system messages), exported only to Troupe's remoting and cluster modules (and to the tracing
 * module, which implements its trace carrier). Internal: the
 * engine's packages under {@code dev.troupe.actor.internal}; only the observability modules see
 * the few they read (the system, its telemetry, the envelopes of local sends); the testkit sees
 * its hooks for {@code TestActorRef} and nothing else.
 */
// The SPI and internal packages are exported to modules that depend on this one, so they can never
// be on this module's compile path: javac's "module not found" warnings for those qualified exports
// are expected, and suppressed here only (the lint category "module" stays on for every other
// module).
@SuppressWarnings("module")
module dev.troupe.runtime {
  requires transitive dev.troupe.actor;
  requires dev.troupe.executors;
  requires org.slf4j;
  requires java.management; // telemetry MBeans (troupe.telemetry.jmx)

  exports dev.troupe.dispatch;

  // Where remoting (and the cluster on top of it) plugs in; nothing else of the engine is theirs.
  // The tracing module implements one interface of it (TraceCarrier: trace context across nodes).
  exports dev.troupe.runtime.spi to dev.troupe.remoting, dev.troupe.cluster, dev.troupe.opentelemetry;

  // The Micrometer binder reads the system (dead letters) and its telemetry; the tracing module
  // installs an envelope factory on the system, and its envelopes are the dispatch package's.
  exports dev.troupe.actor.internal to dev.troupe.micrometer, dev.troupe.opentelemetry;
  exports dev.troupe.actor.internal.testing to dev.troupe.testkit;
  exports dev.troupe.actor.internal.dispatch to dev.troupe.opentelemetry;
  exports dev.troupe.actor.internal.telemetry to dev.troupe.micrometer;

  // Props.create(Class) in dev.troupe.actor instantiates the guardian actors (package-private
  // classes of this package) reflectively.
  opens dev.troupe.actor.internal to dev.troupe.actor;

  // troupe.actor.provider = remote: the remoting module's provider factory, found by name
  uses dev.troupe.runtime.spi.ActorRefProviderFactory;

  provides dev.troupe.actor.spi.ActorSystemProvider with
      dev.troupe.actor.internal.TroupeRuntimeProvider;
}
