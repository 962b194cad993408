package dev.troupe.serialization;

import java.util.Arrays;
import java.util.Objects;

/**
 * A serialized object: everything a receiver needs to rebuild it with {@link
 * Serialization#deserialize(int, String, byte[])}. Equality compares the bytes' contents.
 *
 * @param serializerId the {@link Serializer#identifier()} of the serializer that wrote it
 * @param manifest the serializer's manifest, {@code ""} when it needs none
 * @param bytes the payload (not copied: do not change it)
 */
public record Serialized(int serializerId, String manifest, byte[] bytes) {

  /** Checks that manifest and bytes are present. */
  public Serialized {
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(bytes, "bytes");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Serialized s
        && serializerId == s.serializerId
        && manifest.equals(s.manifest)
        && Arrays.equals(bytes, s.bytes);
  }

  @Override
  public int hashCode() {
    return (31 * serializerId + manifest.hashCode()) * 31 + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "Serialized[serializerId=" + serializerId + ", manifest=" + manifest + ", " + bytes.length + " bytes]";
  }
}
