package dev.troupe.serialization;

import dev.troupe.serialization.internal.JacksonCodec;

/**
 * Users' records and classes through Jackson: {@link JacksonCborSerializer} ({@code jackson-cbor},
 * compact binary) and {@link JacksonJsonSerializer} ({@code jackson-json}, readable text).
 *
 * <p>What they read and write, without annotations:
 *
 * <ul>
 *   <li>records, by their components;
 *   <li>other classes by their fields (any visibility) and getters, created through a no-argument
 *       constructor (it may be private);
 *   <li>{@code ActorRef}s anywhere inside (a field, a {@code List<ActorRef>}), as their paths,
 *       resolved back to refs on the receiving node.
 * </ul>
 *
 * <p>The manifest is the class name. A class is read only if it is bound to this very serializer
 * in {@code troupe.serialization.bindings} (directly or through a superclass or interface): a
 * manifest naming any other class is refused before anything is instantiated (the class is loaded
 * without running its static initializer, to look at its supertypes), and Jackson's default typing
 * is never on, so the bytes cannot make a node construct classes of the sender's choosing.
 *
 * <p>Schema evolution: properties the class does not know are ignored, so a receiver understands a
 * sender with a newer version of a message (an added field); a property that is missing gets its
 * type's default ({@code null}, {@code 0}, {@code false}).
 *
 * <p>On the module path, open the packages of message classes to {@code
 * com.fasterxml.jackson.databind}.
 */
public abstract sealed class JacksonSerializer implements Serializer
    permits JacksonCborSerializer, JacksonJsonSerializer {
  private final JacksonCodec codec;
  private final int identifier;

  JacksonSerializer(JacksonCodec codec, int identifier) {
    this.codec = codec;
    this.identifier = identifier;
  }

  @Override
  public final int identifier() {
    return identifier;
  }

  /** @return the class name of {@code o} */
  @Override
  public final String manifest(Object o) {
    return codec.manifest(o);
  }

  @Override
  public final byte[] toBinary(Object o) {
    return codec.toBinary(o);
  }

  /**
   * @param bytes what {@link #toBinary} wrote
   * @param manifest a class name, which must be bound to this serializer
   * @return the object
   * @throws SerializationException if the class is not bound to this serializer, or the bytes
   *     cannot be read as it
   */
  @Override
  public final Object fromBinary(byte[] bytes, String manifest) {
    return codec.fromBinary(bytes, manifest);
  }
}
