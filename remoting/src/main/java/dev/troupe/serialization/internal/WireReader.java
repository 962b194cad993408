package dev.troupe.serialization.internal;

import dev.troupe.serialization.SerializationException;
import java.nio.charset.StandardCharsets;

/**
 * Reads what {@link WireWriter} wrote. Every read checks its bounds: truncated or malformed input
 * fails with a {@link SerializationException}, never an index error or a huge allocation.
 */
public final class WireReader {
  private final byte[] buf;
  private int pos;
  private final String what;

  /**
   * @param bytes the input
   * @param what what is being read, for error messages
   */
  public WireReader(byte[] bytes, String what) {
    this.buf = bytes;
    this.what = what;
  }

  private SerializationException malformed(String why) {
    return new SerializationException("malformed " + what + " at byte " + pos + " of " + buf.length + ": " + why);
  }

  private void need(int n) {
    if (n < 0 || buf.length - pos < n) {
      throw malformed("needs " + n + " more bytes");
    }
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

  private byte[] readRaw(int n) {
    need(n);
    byte[] out = new byte[n];
    System.arraycopy(buf, pos, out, 0, n);
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
    if (pos != buf.length) {
      throw malformed((buf.length - pos) + " unexpected trailing bytes");
    }
  }
}
