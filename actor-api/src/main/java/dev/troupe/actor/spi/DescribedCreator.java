package dev.troupe.actor.spi;

import dev.troupe.actor.Actor;
import dev.troupe.actor.Creator;

/**
 * A {@link Creator} whose actors stand for something else than their own class: telemetry (metrics
 * per actor class, trace spans) counts them under {@link #describedClassName()}. The typed module's
 * creators are such: every typed actor is one classic actor class, which says nothing; the class its
 * behaviour was written in says what it is. See {@link dev.troupe.actor.Props#telemetryClassName()}.
 *
 * @param <T> the actor type
 */
public interface DescribedCreator<T extends Actor> extends Creator<T> {
  /**
   * Called once per {@code Props}, only when telemetry asks.
   *
   * @return the binary name of the class the actors stand for
   */
  String describedClassName();
}
