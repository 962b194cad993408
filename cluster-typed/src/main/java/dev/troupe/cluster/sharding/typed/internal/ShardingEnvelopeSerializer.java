package dev.troupe.cluster.sharding.typed.internal;

import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.sharding.typed.ShardingEnvelope;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.Serialized;
import dev.troupe.serialization.Serializer;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * {@link ShardingEnvelope}, identifier 34, manifest {@code E}: the entity id, then the message as
 * the system's serialization writes it (its serializer's identifier, manifest and bytes). Bounds:
 * an id or manifest of at most {@value #MAX_STRING} bytes, a message's bytes no longer than what is
 * left of the frame, nothing after it, and no envelope inside an envelope (so that a peer cannot
 * make this node recurse); anything else fails with an {@link IllegalArgumentException}, which the
 * transport reports and drops.
 */
public final class ShardingEnvelopeSerializer implements Serializer {
  /** This serializer's identifier. */
  public static final int IDENTIFIER = 34;
  static final int MAX_STRING = 1024;

  private final ActorSystem system;
  private volatile Serialization serialization; // the registry, looked up on first use

  /** @param system the system whose serialization writes and reads the entities' messages */
  public ShardingEnvelopeSerializer(ActorSystem system) {
    this.system = system;
  }

  private Serialization serialization() {
    Serialization s = serialization;
    if (s == null) {
      s = Serialization.get(system);
      serialization = s;
    }
    return s;
  }

  @Override
  public int identifier() {
    return IDENTIFIER;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof ShardingEnvelope<?>) {
      return "E";
    }
    throw new IllegalArgumentException("not a sharding envelope: " + o);
  }

  @Override
  public byte[] toBinary(Object o) {
    if (!(o instanceof ShardingEnvelope<?> e)) {
      throw new IllegalArgumentException("not a sharding envelope: " + o);
    }
    if (e.message() instanceof ShardingEnvelope<?>) {
      throw new IllegalArgumentException("a sharding envelope inside another is not sent: " + o);
    }
    Serialized inner = serialization().serialize(e.message());
    byte[] id = utf8(e.entityId(), "entity id");
    byte[] manifest = utf8(inner.manifest(), "manifest");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + id.length + manifest.length + inner.bytes().length);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeShort(id.length);
      out.write(id);
      out.writeInt(inner.serializerId());
      out.writeShort(manifest.length);
      out.write(manifest);
      out.writeInt(inner.bytes().length);
      out.write(inner.bytes());
    } catch (IOException x) {
      throw new UncheckedIOException(x); // a byte array stream does not fail
    }
    return bytes.toByteArray();
  }

  private static byte[] utf8(String s, String what) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    if (b.length > MAX_STRING) {
      throw new IllegalArgumentException("a sharding envelope's " + what + " is " + b.length + " bytes, over "
          + MAX_STRING);
    }
    return b;
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    if (!"E".equals(manifest)) {
      throw new IllegalArgumentException("unknown sharding envelope manifest '" + manifest + "'");
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    String id = readString(in, "entity id");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("a sharding envelope without entity id");
    }
    int serializerId = readInt(in, "serializer id");
    if (serializerId == IDENTIFIER) {
      throw new IllegalArgumentException("a sharding envelope inside another is refused");
    }
    String innerManifest = readString(in, "manifest");
    int length = readInt(in, "message length");
    if (length < 0 || length != in.remaining()) {
      throw new IllegalArgumentException("a sharding envelope's message claims " + length + " bytes where "
          + in.remaining() + " are left");
    }
    byte[] message = new byte[length];
    in.get(message);
    return new ShardingEnvelope<>(id, serialization().deserialize(serializerId, innerManifest, message));
  }

  private static int readInt(ByteBuffer in, String what) {
    if (in.remaining() < 4) {
      throw new IllegalArgumentException("a sharding envelope ends inside its " + what);
    }
    return in.getInt();
  }

  private static String readString(ByteBuffer in, String what) {
    if (in.remaining() < 2) {
      throw new IllegalArgumentException("a sharding envelope ends inside its " + what);
    }
    int n = Short.toUnsignedInt(in.getShort());
    if (n > MAX_STRING || n > in.remaining()) {
      throw new IllegalArgumentException("a sharding envelope's " + what + " claims " + n + " bytes (at most "
          + MAX_STRING + ", " + in.remaining() + " left)");
    }
    byte[] b = new byte[n];
    in.get(b);
    return new String(b, StandardCharsets.UTF_8);
  }
}
