package dev.troupe.cluster.internal.core;

import dev.troupe.cluster.internal.sharding.Protocol;
import dev.troupe.cluster.internal.sharding.RegionActor;
import dev.troupe.serialization.Serializer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Sharding's messages between nodes, identifier 31, with a one-letter manifest: {@code D} {@link
 * Protocol.HandOverDone} (version, then the sender's node as address text and uid), {@code W}
 * {@link RegionActor.WhenHandedOver} (no bytes), {@code H} {@link RegionActor.HandedOver} (version),
 * {@code C} {@link Protocol.LeaveCheck} and {@code K} {@link Protocol.LeaveChecked} (round, then the
 * sender's node).
 * Strings are at most {@value WireIo#MAX_STRING} bytes; a malformed frame fails with an {@link
 * IllegalArgumentException} (the transport drops that message).
 */
public final class ShardingMessageSerializer implements Serializer {
  /** For the serialization registry. */
  public ShardingMessageSerializer() {}

  @Override
  public int identifier() {
    return 31;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof Protocol.HandOverDone) {
      return "D";
    } else if (o instanceof RegionActor.WhenHandedOver) {
      return "W";
    } else if (o instanceof RegionActor.HandedOver) {
      return "H";
    } else if (o instanceof Protocol.LeaveCheck) {
      return "C";
    } else if (o instanceof Protocol.LeaveChecked) {
      return "K";
    }
    throw new IllegalArgumentException("not a sharding message: " + o);
  }

  @Override
  public byte[] toBinary(Object o) {
    return WireIo.toBinary(o, 64, ShardingMessageSerializer::write);
  }

  private static void write(Object o, DataOutputStream out) throws IOException {
    if (o instanceof Protocol.HandOverDone d) {
      out.writeLong(d.version());
      WireIo.writeNode(out, d.from());
    } else if (o instanceof RegionActor.HandedOver h) {
      out.writeLong(h.version());
    } else if (o instanceof Protocol.LeaveCheck c) {
      out.writeLong(c.round());
      WireIo.writeNode(out, c.from());
    } else if (o instanceof Protocol.LeaveChecked c) {
      out.writeLong(c.round());
      WireIo.writeNode(out, c.from());
    } else if (!(o instanceof RegionActor.WhenHandedOver)) {
      throw new IllegalArgumentException("not a sharding message: " + o);
    }
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return WireIo.fromBinary("sharding", bytes, manifest, ShardingMessageSerializer::read);
  }

  private static Object read(String manifest, DataInputStream in) throws IOException {
    return switch (manifest) {
      case "D" -> new Protocol.HandOverDone(in.readLong(), WireIo.readNode(in));
      case "W" -> RegionActor.WhenHandedOver.INSTANCE;
      case "H" -> new RegionActor.HandedOver(in.readLong());
      case "C" -> new Protocol.LeaveCheck(in.readLong(), WireIo.readNode(in));
      case "K" -> new Protocol.LeaveChecked(in.readLong(), WireIo.readNode(in));
      default -> throw new IllegalArgumentException("unknown sharding message manifest '" + manifest + "'");
    };
  }
}
