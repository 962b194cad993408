package dev.troupe.cluster.sharding.typed.internal;

import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.sharding.typed.ShardingEnvelope;
import dev.troupe.cluster.typed.internal.WireFrame;
import dev.troupe.serialization.Serialized;
import dev.troupe.serialization.Serializer;

/**
 * {@link ShardingEnvelope}, identifier 34, manifest {@code E}: the entity id, then the message as
 * the system's serialization writes it (its serializer's identifier, manifest and bytes), in the
 * typed cluster's {@link WireFrame}. Bounds: an id or manifest of at most {@value
 * WireFrame#MAX_STRING} bytes, a message's bytes no longer than what is left of the frame, nothing
 * after it, and no envelope inside an envelope (so that a peer cannot make this node recurse);
 * anything else fails with an {@link IllegalArgumentException}, which the transport reports and
 * drops.
 */
public final class ShardingEnvelopeSerializer implements Serializer {
  /** This serializer's identifier. */
  public static final int IDENTIFIER = 34;

  private final WireFrame frame;

  /** @param system the system whose serialization writes and reads the entities' messages */
  public ShardingEnvelopeSerializer(ActorSystem system) {
    this.frame = new WireFrame(system, IDENTIFIER, "a sharding envelope", ShardingEnvelope.class::isInstance);
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
    Serialized inner = frame.payload(e.message());
    return WireFrame.toBinary(64 + e.entityId().length() + inner.bytes().length, out -> {
      frame.writeString(out, e.entityId(), "entity id");
      frame.writePayload(out, inner);
    });
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    if (!"E".equals(manifest)) {
      throw new IllegalArgumentException("unknown sharding envelope manifest '" + manifest + "'");
    }
    WireFrame.Reader in = frame.reader(bytes);
    String id = in.readString("entity id");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("a sharding envelope without entity id");
    }
    return new ShardingEnvelope<>(id, in.readPayload());
  }
}
