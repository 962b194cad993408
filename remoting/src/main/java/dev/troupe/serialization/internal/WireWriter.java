package dev.troupe.serialization.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes the built-in serializers' compact binary encoding into a growing array: unsigned varints
 * (7 bits per byte, low group first) for lengths and identifiers, zigzag varints for signed
 * integers, fixed big-endian widths for floating point, and strings as a varint length plus UTF-8
 * (length + 1, with 0 meaning null, where a string may be null). Not thread-safe; one per call.
 */
public final class WireWriter {
  private byte[] buf;
  private int size;

  /** @param capacity initial capacity in bytes */
  public WireWriter(int capacity) {
    buf = new byte[Math.max(capacity, 8)];
  }

  private void ensure(int more) {
    if (size + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
    }
  }

  /** @param b one byte (the low 8 bits) */
  public void writeByte(int b) {
    ensure(1);
    buf[size++] = (byte) b;
  }

  /** @param v a non-negative int, as an unsigned varint */
  public void writeVarInt(int v) {
    writeVarLong(v & 0xFFFFFFFFL);
  }

  /** @param v a long, as an unsigned varint of its bits */
  public void writeVarLong(long v) {
    ensure(10);
    while ((v & ~0x7FL) != 0) {
      buf[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[size++] = (byte) v;
  }

  /** @param v a signed long, zigzag-encoded so that small magnitudes are short */
  public void writeSignedVarLong(long v) {
    writeVarLong((v << 1) ^ (v >> 63));
  }

  /** @param v eight bytes, big-endian */
  public void writeLong(long v) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      buf[size++] = (byte) (v >>> shift);
    }
  }

  /** @param v four bytes, big-endian */
  public void writeInt(int v) {
    ensure(4);
    for (int shift = 24; shift >= 0; shift -= 8) {
      buf[size++] = (byte) (v >>> shift);
    }
  }

  /** @param bytes a varint length, then the bytes */
  public void writeBytes(byte[] bytes) {
    writeVarInt(bytes.length);
    writeRaw(bytes);
  }

  /** @param bytes the bytes, no length */
  public void writeRaw(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, size, bytes.length);
    size += bytes.length;
  }

  /** @param s a non-null string: varint length, then UTF-8 */
  public void writeString(String s) {
    writeBytes(s.getBytes(StandardCharsets.UTF_8));
  }

  /** @param s a string or null: varint (length + 1, 0 for null), then UTF-8 */
  public void writeNullableString(String s) {
    if (s == null) {
      writeVarInt(0);
      return;
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    writeVarInt(b.length + 1);
    writeRaw(b);
  }

  /** @return a copy of what was written */
  public byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }
}
