package dev.troupe.serialization.internal;

import dev.troupe.serialization.Serializer;

/**
 * One of Troupe's serializers, which reads a value nested in another value's bytes in place: from
 * a {@link WireReader#nested} view over the same array, with the depth the view carries, instead of
 * from a copy of those bytes ({@link WireContext#readNested}). {@link #fromBinary} is {@link #read}
 * of a reader over the whole array.
 */
public interface InPlaceSerializer extends Serializer {
  /**
   * Reads a value from all of {@code r}'s bytes, checking that none are left.
   *
   * @param r the value's bytes
   * @param manifest its manifest
   * @return the value, never null
   */
  Object read(WireReader r, String manifest);
}
