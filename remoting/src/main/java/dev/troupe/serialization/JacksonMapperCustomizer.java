package dev.troupe.serialization;

import com.fasterxml.jackson.databind.cfg.MapperBuilder;

/**
 * Configures the Jackson mappers of {@code jackson-json} and {@code jackson-cbor} beyond what
 * modules can: features, mix-ins, naming strategies. Named by class in {@code
 * troupe.serialization.jackson.mapper-customizer} (a public class with a public no-argument
 * constructor), created once per serializer when the system's serialization starts, and called
 * last, after Troupe's own settings and every module are in place; what it changes applies to both
 * directions.
 *
 * <p>Keep messages readable by older nodes: a customizer that changes how values are written (a
 * naming strategy, dates as text) must run on every node of a cluster before such messages flow.
 * Never enable default typing: it would let a peer's bytes choose which classes are constructed.
 */
@FunctionalInterface
public interface JacksonMapperCustomizer {
  /**
   * @param builder the mapper being built ({@code JsonMapper.Builder} or {@code CBORMapper.Builder})
   * @param serializerName {@code jackson-json} or {@code jackson-cbor}
   */
  void customize(MapperBuilder<?, ?> builder, String serializerName);
}
