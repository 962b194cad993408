package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.Serialized;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.UncheckedIOException;

/**
 * The pieces the cluster's serializers share: the frame of one message (its body written to a byte
 * array; read back with every byte accounted for, a short or malformed one refused with an {@link
 * IllegalArgumentException} that names the serializer and the manifest), and inside it a node as
 * its address text and uid and an actor ref through the system's registry, both bounded on read.
 */
final class WireIo {
  /** The longest string (address, endpoint, path or manifest) accepted from a peer, in chars. */
  static final int MAX_STRING = 1024;

  private WireIo() {}

  /** Writes the body of one message: what its manifest announces, nothing more. */
  @FunctionalInterface
  interface BodyWriter {
    /**
     * @param message the message
     * @param out where its fields go
     * @throws IllegalArgumentException if the serializer does not know the message
     */
    void write(Object message, DataOutputStream out) throws IOException;
  }

  /** Reads the body of one message, given its manifest. */
  @FunctionalInterface
  interface BodyReader {
    /**
     * @param manifest the manifest the message came with
     * @param in its bytes
     * @return the message
     * @throws IllegalArgumentException for a manifest the serializer does not know
     * @throws IOException for bytes that are short or malformed
     */
    Object read(String manifest, DataInputStream in) throws IOException;
  }

  /**
   * One message's bytes. Pass a writer that captures nothing per call (a static method, or a field
   * made once), so that the frame adds no allocation of its own.
   *
   * @param message the message
   * @param sizeHint the initial capacity of the buffer
   * @param body writes the message's fields
   * @return the bytes
   */
  static byte[] toBinary(Object message, int sizeHint, BodyWriter body) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(sizeHint);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      body.write(message, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * One message from a peer's bytes, all of which it must use.
   *
   * @param kind the serializer's messages in errors, e.g. {@code "sharding"}
   * @param bytes the bytes
   * @param manifest the manifest they came with
   * @param body reads the message's fields
   * @return the message
   * @throws IllegalArgumentException naming the kind and manifest, for an unknown manifest, bytes
   *     that are short or malformed, or bytes left over
   */
  static Object fromBinary(String kind, byte[] bytes, String manifest, BodyReader body) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      Object m = body.read(manifest, in);
      if (in.available() > 0) {
        throw new IllegalArgumentException(kind + " message " + manifest + " has " + in.available() + " extra bytes");
      }
      return m;
    } catch (IOException e) {
      throw new IllegalArgumentException("malformed " + kind + " message " + manifest + ": " + e, e);
    }
  }

  static void writeNode(DataOutputStream out, UniqueAddress node) throws IOException {
    out.writeUTF(node.address().toString());
    out.writeLong(node.uid());
  }

  static UniqueAddress readNode(DataInputStream in) throws IOException {
    String text = readString(in);
    Address a;
    try {
      a = Address.parse(text);
    } catch (RuntimeException e) {
      throw new NotSerializableException("malformed node address: " + e.getMessage());
    }
    return new UniqueAddress(a, in.readLong());
  }

  /** Reads a modified-UTF-8 string (its 2-byte length bounds it to 64 KiB) and refuses a long one. */
  static String readString(DataInputStream in) throws IOException {
    String s = in.readUTF();
    if (s.length() > MAX_STRING) {
      throw new NotSerializableException("a string of " + s.length() + " chars (at most " + MAX_STRING + ")");
    }
    return s;
  }

  static void writeRef(DataOutputStream out, ActorSystem system, ActorRef ref) throws IOException {
    Serialized s = Serialization.get(system).serialize(ref);
    out.writeInt(s.serializerId());
    out.writeUTF(s.manifest());
    out.writeShort(s.bytes().length);
    out.write(s.bytes());
  }

  static ActorRef readRef(DataInputStream in, ActorSystem system) throws IOException {
    int id = in.readInt();
    String manifest = readString(in);
    int len = in.readUnsignedShort();
    if (len > MAX_STRING) {
      throw new NotSerializableException("an actor ref of " + len + " bytes (at most " + MAX_STRING + ")");
    }
    byte[] b = new byte[len];
    in.readFully(b);
    Object o;
    try {
      o = Serialization.get(system).deserialize(id, manifest, b);
    } catch (RuntimeException e) {
      throw new NotSerializableException("malformed actor ref: " + e.getMessage());
    }
    if (!(o instanceof ActorRef r)) {
      throw new NotSerializableException("expected an actor ref, read a " + o.getClass().getName());
    }
    return r;
  }
}
