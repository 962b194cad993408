/**
 * Troupe's engine: the actor system implementation behind {@code dev.troupe.actor}.
 *
 * <p>Only {@code dev.troupe.dispatch} is public API. The internal packages are exported only to
 * Troupe's own remoting, testkit and observability modules; they are not for application code.
 */
// The internal packages are exported to modules that depend on this one, so they can never be on
// this module's compile path: javac's "module not found" warnings for those qualified exports are
// expected, and suppressed here only (the lint category "module" stays on for every other module).
@SuppressWarnings("module")
module dev.troupe.runtime {
  requires transitive dev.troupe.actor;
  requires dev.troupe.executors;
  requires org.slf4j;
  requires java.management; // telemetry MBeans (troupe.telemetry.jmx)

  exports dev.troupe.dispatch;

  // The Micrometer binder reads the system (dead letters) and its telemetry; the tracing module
  // installs an envelope factory on the system, and its envelopes are the dispatch package's.
  exports dev.troupe.actor.internal to
      dev.troupe.remoting, dev.troupe.testkit, dev.troupe.micrometer, dev.troupe.opentelemetry;
  exports dev.troupe.actor.internal.dispatch to
      dev.troupe.remoting, dev.troupe.testkit, dev.troupe.opentelemetry;
  exports dev.troupe.actor.internal.routing to dev.troupe.remoting, dev.troupe.testkit;
  exports dev.troupe.actor.internal.scheduler to dev.troupe.remoting, dev.troupe.testkit;
  exports dev.troupe.actor.internal.telemetry to
      dev.troupe.remoting, dev.troupe.testkit, dev.troupe.micrometer;

  // Props.create(Class) in dev.troupe.actor instantiates the guardian actors (package-private
  // classes of this package) reflectively.
  opens dev.troupe.actor.internal to dev.troupe.actor;

  // troupe.actor.provider = remote: the remoting module's provider factory, found by name
  uses dev.troupe.actor.internal.ActorRefProviderFactory;

  provides dev.troupe.actor.spi.ActorSystemProvider with
      dev.troupe.actor.internal.TroupeRuntimeProvider;
}
