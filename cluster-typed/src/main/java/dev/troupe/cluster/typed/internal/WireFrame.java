package dev.troupe.cluster.typed.internal;

import dev.troupe.actor.ActorSystem;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.Serialized;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The frame the typed cluster's serializers share. A string is a 2-byte length and its UTF-8 bytes,
 * at most {@value #MAX_STRING} of them; a message carried inside (a payload) is written by the
 * system's serialization (its serializer's identifier, a manifest string, a 4-byte length and the
 * bytes) and stands last in the frame, its length exactly what is left.
 *
 * <p>A peer may be an adversary: on read every length is checked against its bound and against what
 * is left of the frame before anything is allocated, a payload written by the carrying serializer
 * itself is refused (so that a peer cannot make this node recurse), and every failure is an {@link
 * IllegalArgumentException} that names the kind of message, which the transport reports and drops.
 */
public final class WireFrame {
  /** The longest string (id, manifest, actor path) written or read, in UTF-8 bytes. */
  public static final int MAX_STRING = 1024;

  private final ActorSystem system;
  private final int identifier;
  private final String kind;
  private final java.util.function.Predicate<Object> own;
  private volatile Serialization serialization; // the registry, looked up on first use

  /**
   * @param system the system whose serialization writes and reads the payloads
   * @param identifier the carrying serializer's identifier: a payload of its own is refused
   * @param kind the messages in errors, with their article, e.g. {@code "a sharding envelope"}
   * @param own whether a message is one the carrying serializer writes (refused as a payload on
   *     write, before it is serialized: no recursion)
   */
  public WireFrame(ActorSystem system, int identifier, String kind, java.util.function.Predicate<Object> own) {
    this.system = system;
    this.identifier = identifier;
    this.kind = kind;
    this.own = own;
  }

  private Serialization serialization() {
    Serialization s = serialization;
    if (s == null) {
      s = Serialization.get(system);
      serialization = s;
    }
    return s;
  }

  /** Writes the fields of one message. */
  @FunctionalInterface
  public interface Body {
    /**
     * @param out where the fields go
     * @throws IOException never from the frame's own buffer
     */
    void write(DataOutputStream out) throws IOException;
  }

  /**
   * @param sizeHint the buffer's initial capacity
   * @param body writes the message's fields
   * @return the frame's bytes
   */
  public static byte[] toBinary(int sizeHint, Body body) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(sizeHint);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      body.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array stream does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * @param s a string
   * @param what the field, for the error
   * @return its UTF-8 bytes
   * @throws IllegalArgumentException if they are more than {@value #MAX_STRING}
   */
  public byte[] utf8(String s, String what) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    if (b.length > MAX_STRING) {
      throw new IllegalArgumentException(kind + "'s " + what + " is " + b.length + " bytes, over " + MAX_STRING);
    }
    return b;
  }

  /**
   * Writes a string: its length (2 bytes) and UTF-8 bytes.
   *
   * @param out the frame
   * @param s the string
   * @param what the field, for the error
   * @throws IOException never from the frame's own buffer
   * @throws IllegalArgumentException if it is more than {@value #MAX_STRING} bytes
   */
  public void writeString(DataOutputStream out, String s, String what) throws IOException {
    writeBytes(out, utf8(s, what));
  }

  private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeShort(b.length);
    out.write(b);
  }

  /**
   * Serializes a message to be carried, refusing one that the carrying serializer would write.
   *
   * @param message the message
   * @return what the system's serialization made of it
   * @throws IllegalArgumentException for a message of the carrying serializer's own kinds (its
   *     manifest is checked when {@link #writePayload} writes it)
   */
  public Serialized payload(Object message) {
    if (own.test(message)) {
      throw new IllegalArgumentException(kind + " inside another is not sent: " + message);
    }
    return serialization().serialize(message);
  }

  /**
   * Writes a payload made by {@link #payload}: the last thing in the frame.
   *
   * @param out the frame
   * @param inner the payload
   * @throws IOException never from the frame's own buffer
   */
  public void writePayload(DataOutputStream out, Serialized inner) throws IOException {
    out.writeInt(inner.serializerId());
    writeBytes(out, utf8(inner.manifest(), "manifest"));
    out.writeInt(inner.bytes().length);
    out.write(inner.bytes());
  }

  /**
   * @param bytes a frame from a peer
   * @return a reader of its fields
   */
  public Reader reader(byte[] bytes) {
    return new Reader(ByteBuffer.wrap(bytes));
  }

  /** Reads one frame from a peer, each field bounded before it is allocated. */
  public final class Reader {
    private final ByteBuffer in;

    private Reader(ByteBuffer in) {
      this.in = in;
    }

    private void need(int n, String what) {
      if (in.remaining() < n) {
        throw new IllegalArgumentException(kind + " ends inside its " + what);
      }
    }

    /**
     * @param what the field, for the error
     * @return the next byte
     */
    public byte readByte(String what) {
      need(1, what);
      return in.get();
    }

    /**
     * @param what the field, for the error
     * @return the next 4-byte integer
     */
    public int readInt(String what) {
      need(4, what);
      return in.getInt();
    }

    /**
     * @param what the field, for the error
     * @return the next 8-byte integer
     */
    public long readLong(String what) {
      need(8, what);
      return in.getLong();
    }

    /**
     * @param what the field, for the error
     * @return the next string, at most {@value #MAX_STRING} bytes
     */
    public String readString(String what) {
      need(2, what);
      int n = Short.toUnsignedInt(in.getShort());
      if (n > MAX_STRING || n > in.remaining()) {
        throw new IllegalArgumentException(kind + "'s " + what + " claims " + n + " bytes (at most "
            + MAX_STRING + ", " + in.remaining() + " left)");
      }
      byte[] b = new byte[n];
      in.get(b);
      return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * Reads the payload, which must fill the rest of the frame exactly, and deserializes it.
     *
     * @return the carried message
     * @throws IllegalArgumentException for a payload of the carrying serializer's own, a length
     *     other than what is left, or a payload its own serializer cannot read
     */
    public Object readPayload() {
      int serializerId = readInt("serializer id");
      if (serializerId == identifier) {
        throw new IllegalArgumentException(kind + " inside another is refused");
      }
      String manifest = readString("manifest");
      int length = readInt("message length");
      if (length < 0 || length != in.remaining()) {
        throw new IllegalArgumentException(kind + "'s message claims " + length + " bytes where "
            + in.remaining() + " are left");
      }
      byte[] message = new byte[length];
      in.get(message);
      try {
        return serialization().deserialize(serializerId, manifest, message);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(kind + "'s message (serializer " + serializerId + ", manifest '"
            + manifest + "') is not readable: " + e.getMessage(), e);
      }
    }

    /** @throws IllegalArgumentException if bytes are left after the message's fields */
    public void end() {
      if (in.hasRemaining()) {
        throw new IllegalArgumentException(kind + " has " + in.remaining() + " bytes after its fields");
      }
    }
  }
}
