package dev.troupe.serialization;

import dev.troupe.actor.ActorSystem;
import dev.troupe.serialization.internal.JacksonCodec;

/**
 * Users' records and classes as JSON text through Jackson; configured as {@code jackson-json},
 * identifier 20: readable on the wire, larger than {@link JacksonCborSerializer}. What it reads and
 * how it stays safe: see {@link JacksonSerializer}.
 */
public final class JacksonJsonSerializer extends JacksonSerializer {
  /** @param system the system whose refs and bindings are used */
  public JacksonJsonSerializer(ActorSystem system) {
    super(JacksonCodec.json(system, 20, JacksonJsonSerializer.class), 20);
  }
}
