package dev.troupe.serialization;

import dev.troupe.actor.ActorSystem;
import dev.troupe.serialization.internal.JacksonCodec;

/**
 * Users' records and classes as CBOR (RFC 8949, binary JSON) through Jackson; configured as {@code
 * jackson-cbor}, identifier 21: the compact choice for messages between nodes. What it reads and
 * how it stays safe: see {@link JacksonSerializer}.
 */
public final class JacksonCborSerializer extends JacksonSerializer {
  /** @param system the system whose refs and bindings are used */
  public JacksonCborSerializer(ActorSystem system) {
    super(JacksonCodec.cbor(system, 21, JacksonCborSerializer.class), 21);
  }
}
