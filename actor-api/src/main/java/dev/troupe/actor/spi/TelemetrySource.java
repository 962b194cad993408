package dev.troupe.actor.spi;

import dev.troupe.actor.Telemetry;

/** Implemented by a runtime's actor system to serve {@link Telemetry#get}. */
public interface TelemetrySource {
  /** @return the system's telemetry, never null (a disabled one when switched off) */
  Telemetry telemetry();
}
