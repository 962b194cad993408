package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.internal.pubsub.Relay;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.Serialized;
import dev.troupe.serialization.Serializer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;

/**
 * The publish-subscribe mediators' {@link Relay}, identifier {@value #IDENTIFIER}, manifest {@code
 * R}: the listing's key, then the message as the system's serialization writes it (its serializer's
 * identifier, manifest, length and bytes). A key or manifest over {@value WireIo#MAX_STRING} chars,
 * a key of no listing kind, a length other than what is left of the frame, a relay inside a relay
 * (so that a peer cannot make this node recurse), or a message its own serializer cannot read fails
 * with an {@link
 * IllegalArgumentException} before the message is read; the transport drops it.
 */
public final class PubSubMessageSerializer implements Serializer {
  /** This serializer's identifier. */
  public static final int IDENTIFIER = 35;

  private final ActorSystem system;
  private final WireIo.BodyWriter writer = this::write;
  private final WireIo.BodyReader reader = this::read;

  /** @param system the system whose serialization writes and reads the relayed messages */
  public PubSubMessageSerializer(ActorSystem system) {
    this.system = system;
  }

  @Override
  public int identifier() {
    return IDENTIFIER;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof Relay) {
      return "R";
    }
    throw new IllegalArgumentException("not a publish-subscribe relay: " + o);
  }

  @Override
  public byte[] toBinary(Object o) {
    return WireIo.toBinary(o, 128, writer);
  }

  private void write(Object o, DataOutputStream out) throws IOException {
    if (!(o instanceof Relay r)) {
      throw new IllegalArgumentException("not a publish-subscribe relay: " + o);
    }
    if (r.message() instanceof Relay) {
      throw new IllegalArgumentException("a relay inside another is not sent: " + o);
    }
    Serialized inner = Serialization.get(system).serialize(r.message());
    out.writeUTF(r.key());
    out.writeInt(inner.serializerId());
    out.writeUTF(inner.manifest());
    out.writeInt(inner.bytes().length);
    out.write(inner.bytes());
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return WireIo.fromBinary("publish-subscribe", bytes, manifest, reader);
  }

  private Object read(String manifest, DataInputStream in) throws IOException {
    if (!"R".equals(manifest)) {
      throw new IllegalArgumentException("unknown publish-subscribe manifest " + manifest);
    }
    String key = WireIo.readString(in);
    if (key.length() < 2 || "tgp".indexOf(key.charAt(0)) < 0) {
      throw new NotSerializableException("a relay's key names no topic, group or path");
    }
    int serializerId = in.readInt();
    if (serializerId == IDENTIFIER) {
      throw new NotSerializableException("a relay inside another is refused");
    }
    String innerManifest = WireIo.readString(in);
    int length = in.readInt();
    if (length < 0 || length != in.available()) {
      throw new NotSerializableException("a relay's message claims " + length + " bytes where " + in.available()
          + " are left");
    }
    byte[] message = new byte[length];
    in.readFully(message);
    Object inner;
    try {
      inner = Serialization.get(system).deserialize(serializerId, innerManifest, message);
    } catch (RuntimeException e) {
      throw new NotSerializableException("the relayed message: " + e.getMessage());
    }
    return new Relay(key, inner);
  }
}
