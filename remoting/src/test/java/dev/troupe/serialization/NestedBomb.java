package dev.troupe.serialization;

import java.nio.charset.StandardCharsets;

/**
 * The bytes of a built-in {@code Identify} (serializer 5, manifest {@code I}) whose message id is
 * an {@code Identify}, whose message id is one, and so on, written by hand from the layout of
 * {@code MessageSerializer} and {@code WireContext.writeNested}: presence, serializer id, manifest,
 * length, bytes. Built from the innermost value outwards into one array, in linear time.
 */
public final class NestedBomb {
  /** The identifier of Troupe's built-in messages' serializer. */
  public static final int SERIALIZER = 5;

  /** The manifest of {@code Identify}. */
  public static final String MANIFEST = "I";

  private NestedBomb() {}

  /**
   * @param levels how many {@code Identify} values lie nested in the outer one (the innermost
   *     has no message id)
   * @return the outer one's bytes
   */
  public static byte[] identify(int levels) {
    byte[] buf = new byte[1 + levels * 9];
    int pos = buf.length;
    buf[--pos] = 0; // the innermost Identify: no message id
    byte[] manifest = MANIFEST.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < levels; i++) {
      int length = buf.length - pos;
      byte[] varint = varInt(length);
      pos -= varint.length;
      System.arraycopy(varint, 0, buf, pos, varint.length);
      pos -= manifest.length;
      System.arraycopy(manifest, 0, buf, pos, manifest.length);
      buf[--pos] = (byte) manifest.length;
      buf[--pos] = SERIALIZER;
      buf[--pos] = 1; // present
    }
    return java.util.Arrays.copyOfRange(buf, pos, buf.length);
  }

  /**
   * @param size the most bytes
   * @return the bytes of the deepest nesting {@link #identify} writes in at most {@code size} bytes
   */
  public static byte[] identifyOfAtMost(int size) {
    int lo = 0;
    int hi = size / 5;
    while (lo < hi) { // the size grows with the levels: the most that fit
      int mid = (lo + hi + 1) >>> 1;
      if (identify(mid).length <= size) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return identify(lo);
  }

  /** @return {@code v} as an unsigned varint, 7 bits a byte, low group first */
  public static byte[] varInt(int v) {
    byte[] out = new byte[5];
    int n = 0;
    while ((v & ~0x7F) != 0) {
      out[n++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[n++] = (byte) v;
    return java.util.Arrays.copyOf(out, n);
  }
}
