package dev.troupe.serialization;

/**
 * Turns messages of the classes bound to it into bytes and back. A system has one instance of each
 * serializer named in {@code troupe.serialization.serializers}; the registry ({@link
 * Serialization}) picks one per class from {@code troupe.serialization.bindings}.
 *
 * <p>An implementation has a public constructor taking the {@link dev.troupe.actor.ActorSystem}, or
 * a public no-argument one, and is thread-safe: every method may be called from many threads at
 * once. A constructor must not call {@link Serialization#get}; a serializer that needs the registry
 * (to serialize nested values) looks it up when first used.
 */
public interface Serializer {

  /**
   * The identifier written beside every payload this serializer produced; the receiver picks the
   * serializer by it. Stable across versions, unique within a system; {@code 0..99} are reserved for
   * Troupe's own serializers.
   *
   * @return the identifier
   */
  int identifier();

  /**
   * What the receiver needs besides the bytes to rebuild {@code o}, typically its class name.
   *
   * @param o an object of a class bound to this serializer
   * @return the manifest; {@code ""} when this serializer needs none
   */
  String manifest(Object o);

  /**
   * Serializes an object.
   *
   * @param o an object of a class bound to this serializer
   * @return its bytes
   */
  byte[] toBinary(Object o);

  /**
   * Rebuilds an object. May throw for bytes it cannot read: a transport drops that message and
   * keeps the link.
   *
   * @param bytes what {@link #toBinary} produced
   * @param manifest what {@link #manifest} produced
   * @return the object
   */
  Object fromBinary(byte[] bytes, String manifest);
}
