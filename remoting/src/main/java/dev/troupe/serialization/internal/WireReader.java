package dev.troupe.serialization.internal;

import dev.troupe.serialization.SerializationException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads what {@link WireWriter} wrote. Every read checks its bounds: truncated or malformed input
 * fails with a {@link SerializationException}, never an index error or a huge allocation.
 *
 * <p>A value nested in another ({@link WireContext#readNested}) is read through a {@link #nested}
 * view: the same array, bounded to the nested bytes, one level deeper. No level copies the bytes
 * below it, and no view is deeper than {@value #MAX_DEPTH} levels.
 */
public final class WireReader {
  /**
   * How deep values may be nested in one another ({@code Identify(Identify(42))} nests 42 two
   * deep): a message nested deeper is refused, however it is read.
   */
  public static final int MAX_DEPTH = 32;

  private final byte[] buf;
  private final int start;
  private final int limit;
  private final int depth;
  private final String what; // for error messages; null for a view, which names its serializer
  private final int serializerId;
  private final String manifest; // appended to what in error messages, when not null
  private int pos;

  /**
   * @param bytes the input
   * @param what what is being read, for error messages
   */
  public WireReader(byte[] bytes, String what) {
    this(bytes, 0, bytes.length, 0, what, 0, null);
  }

  /**
   * @param bytes the input
   * @param what what is being read, for error messages (the manifest follows it there)
   * @param manifest the input's manifest
   */
  public WireReader(byte[] bytes, String what, String manifest) {
    this(bytes, 0, bytes.length, 0, what, 0, manifest);
  }

  private WireReader(byte[] buf, int start, int limit, int depth, String what, int serializerId, String manifest) {
    this.buf = buf;
    this.start = start;
    this.limit = limit;
    this.depth = depth;
    this.what = what;
    this.serializerId = serializerId;
    this.manifest = manifest;
    this.pos = start;
  }

  private SerializationException malformed(String why) {
    return new SerializationException(
        "malformed " + (what != null ? what : "value nested " + depth + " deep (serializer " + serializerId + ")")
            + (manifest == null ? "" : " '" + manifest + "'") + " at byte " + (pos - start) + " of "
            + (limit - start) + ": " + why);
  }

  private void need(int n) {
    if (n < 0 || limit - pos < n) {
      throw malformed("needs " + n + " more bytes");
    }
  }

  /** @return how many views this one is nested in: 0 for a message's own bytes */
  public int depth() {
    return depth;
  }

  /**
   * Takes the next {@code length} bytes as a view one level deeper, for a nested value.
   *
   * @param length the nested value's bytes
   * @param serializerId the nested value's serializer, for error messages
   * @param nestedManifest its manifest
   * @return the view
   * @throws SerializationException if fewer bytes are left, or the view would be deeper than
   *     {@value #MAX_DEPTH}
   */
  public WireReader nested(int length, int serializerId, String nestedManifest) {
    if (depth >= MAX_DEPTH) {
      throw malformed("values nested more than " + MAX_DEPTH + " deep");
    }
    need(length);
    WireReader view = new WireReader(buf, pos, pos + length, depth + 1, null, serializerId, nestedManifest);
    pos += length;
    return view;
  }

  /** @return one byte, 0..255 */
  public int readByte() {
    need(1);
    return buf[pos++] & 0xFF;
  }

  /** @return a byte that must be 0 (false) or 1 (true) */
  public boolean readBoolean() {
    int b = readByte();
    if (b > 1) {
      throw malformed("expected 0 or 1, was " + b);
    }
    return b == 1;
  }

  /** @return an unsigned varint that must fit a non-negative int */
  public int readVarInt() {
    long v = readVarLong();
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw malformed("varint out of range: " + Long.toUnsignedString(v));
    }
    return (int) v;
  }

  /** @return an unsigned varint of up to 64 bits */
  public long readVarLong() {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = readByte();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw malformed("varint longer than 10 bytes");
  }

  /** @return a zigzag-encoded signed long */
  public long readSignedVarLong() {
    long v = readVarLong();
    return (v >>> 1) ^ -(v & 1);
  }

  /** @return eight bytes, big-endian */
  public long readLong() {
    need(8);
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (buf[pos++] & 0xFF);
    }
    return v;
  }

  /** @return four bytes, big-endian */
  public int readInt() {
    need(4);
    int v = 0;
    for (int i = 0; i < 4; i++) {
      v = (v << 8) | (buf[pos++] & 0xFF);
    }
    return v;
  }

  /** @return a varint length, then that many bytes */
  public byte[] readBytes() {
    return readRaw(readVarInt());
  }

  /** @return a copy of the bytes not read yet (all of them are read then) */
  public byte[] readRemaining() {
    return readRaw(limit - pos);
  }

  /** @return the bytes not read yet as UTF-8 (all of them are read then) */
  public String readRemainingString() {
    String s = new String(buf, pos, limit - pos, StandardCharsets.UTF_8);
    pos = limit;
    return s;
  }

  private byte[] readRaw(int n) {
    need(n);
    byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
    pos += n;
    return out;
  }

  /** @return a non-null string */
  public String readString() {
    int n = readVarInt();
    need(n);
    String s = new String(buf, pos, n, StandardCharsets.UTF_8);
    pos += n;
    return s;
  }

  /** @return a string or null */
  public String readNullableString() {
    int n = readVarInt();
    if (n == 0) {
      return null;
    }
    need(n - 1);
    String s = new String(buf, pos, n - 1, StandardCharsets.UTF_8);
    pos += n - 1;
    return s;
  }

  /** Checks that everything was read: trailing bytes mean the input is not what it claims. */
  public void end() {
    if (pos != limit) {
      throw malformed((limit - pos) + " unexpected trailing bytes");
    }
  }
}
