/**
 * Troupe's OpenTelemetry tracing: {@code dev.troupe.opentelemetry.TroupeTracing} makes an actor's
 * handling of a traced message a span whose parent is the sender's. Needs the OpenTelemetry API
 * only; the SDK (exporters, sampling) is the application's.
 */
// The OpenTelemetry API jars are automatic modules (no module-info of their own): requiring them
// is expected.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.troupe.opentelemetry {
  requires transitive dev.troupe.actor;
  requires transitive io.opentelemetry.api;
  requires io.opentelemetry.context;
  requires dev.troupe.runtime;

  exports dev.troupe.opentelemetry;
}
