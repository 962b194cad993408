package dev.troupe.bench.common;

import dev.troupe.actor.ActorSystem;
import dev.troupe.micrometer.TroupeMetrics;
import dev.troupe.opentelemetry.TroupeTracing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.samplers.Sampler;

/**
 * The observability modules as the benchmarks switch them on, so that every benchmark measures
 * the same set-up: tracing installed with an SDK that samples every span and exports nothing (the
 * figure is Troupe's part plus the SDK's span itself, not an exporter's), and the Micrometer
 * binder with its defaults bound to a {@link SimpleMeterRegistry} (the system must run with {@code
 * troupe.telemetry.enabled = on}, {@link #TELEMETRY_ON}, for its dispatcher and class meters).
 */
public final class Observability implements AutoCloseable {
  /** HOCON that switches the runtime's telemetry on (its defaults otherwise). */
  public static final String TELEMETRY_ON = "\ntroupe.telemetry.enabled = on\n";

  private final SdkTracerProvider tracerProvider; // null without tracing
  private final Tracer tracer; // null without tracing
  private final TroupeMetrics metrics; // null without the binder

  private Observability(SdkTracerProvider tracerProvider, Tracer tracer, TroupeMetrics metrics) {
    this.tracerProvider = tracerProvider;
    this.tracer = tracer;
    this.metrics = metrics;
  }

  /**
   * Installs tracing on {@code system}.
   *
   * @param system the system
   * @return the installation; {@link #tracer()} starts spans in its SDK
   */
  public static Observability tracing(ActorSystem system) {
    SdkTracerProvider provider =
        SdkTracerProvider.builder().setSampler(Sampler.alwaysOn()).build();
    OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(provider).build();
    TroupeTracing.install(system, sdk);
    return new Observability(provider, sdk.getTracer("bench"), null);
  }

  /**
   * Binds the Micrometer binder of {@code system} to a fresh registry.
   *
   * @param system the system, with telemetry on
   * @return the binding
   */
  public static Observability metrics(ActorSystem system) {
    TroupeMetrics metrics = new TroupeMetrics(system);
    metrics.bindTo(new SimpleMeterRegistry());
    return new Observability(null, null, metrics);
  }

  /** @return the SDK's tracer; null unless made by {@link #tracing} */
  public Tracer tracer() {
    return tracer;
  }

  /** Closes the SDK or the binder (call after the system has terminated, or before). */
  @Override
  public void close() {
    if (tracerProvider != null) {
      tracerProvider.close();
    }
    if (metrics != null) {
      metrics.close();
    }
  }
}
