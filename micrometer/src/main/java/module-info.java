/**
 * Troupe's Micrometer meters: {@code dev.troupe.micrometer.TroupeMetrics}, a {@code MeterBinder}
 * over an actor system's telemetry and events. With {@code troupe-remoting} resolved too, it
 * publishes remoting's events and per-peer figures as meters; with {@code troupe-cluster}, the
 * cluster's members.
 */
// micrometer-core is an automatic module (no module-info of its own): requiring it is expected.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.troupe.micrometer {
  requires transitive dev.troupe.actor;
  requires transitive micrometer.core;
  requires dev.troupe.runtime;
  requires static dev.troupe.remoting;
  requires static dev.troupe.cluster;
  requires org.slf4j;

  exports dev.troupe.micrometer;
}
