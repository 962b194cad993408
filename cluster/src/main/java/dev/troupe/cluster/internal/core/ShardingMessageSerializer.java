package dev.troupe.cluster.internal.core;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.sharding.Protocol;
import dev.troupe.cluster.internal.sharding.RegionActor;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.serialization.Serializer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Sharding's messages between nodes, identifier 31, with a one-letter manifest: {@code Q} {@link
 * Protocol.HandOverQuery} (version, the sender's node, then the number of owners, at most {@value
 * #MAX_OWNERS}, and each owner's node), {@code D} {@link Protocol.HandOverDone} (version, then the
 * sender's node as address text and uid), {@code W}
 * {@link RegionActor.WhenHandedOver} (no bytes), {@code H} {@link RegionActor.HandedOver} (version),
 * {@code C} {@link Protocol.LeaveCheck} and {@code K} {@link Protocol.LeaveChecked} (round, then the
 * sender's node), {@code S} {@link ShardRegion.StartEntity} (the entity id: a region forwards it to
 * the member that hosts the entity's shard).
 * Strings are at most {@value WireIo#MAX_STRING} bytes; a malformed frame fails with an {@link
 * IllegalArgumentException} (the transport drops that message).
 */
public final class ShardingMessageSerializer implements Serializer {
  /** The most owners a hand-over query may list (a peer's frame cannot make this node allocate more). */
  static final int MAX_OWNERS = 10_000;

  /** For the serialization registry. */
  public ShardingMessageSerializer() {}

  @Override
  public int identifier() {
    return 31;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof Protocol.HandOverQuery) {
      return "Q";
    } else if (o instanceof Protocol.HandOverDone) {
      return "D";
    } else if (o instanceof RegionActor.WhenHandedOver) {
      return "W";
    } else if (o instanceof RegionActor.HandedOver) {
      return "H";
    } else if (o instanceof Protocol.LeaveCheck) {
      return "C";
    } else if (o instanceof Protocol.LeaveChecked) {
      return "K";
    } else if (o instanceof ShardRegion.StartEntity) {
      return "S";
    }
    throw new IllegalArgumentException("not a sharding message: " + o);
  }

  @Override
  public byte[] toBinary(Object o) {
    return WireIo.toBinary(o, 64, ShardingMessageSerializer::write);
  }

  private static void write(Object o, DataOutputStream out) throws IOException {
    if (o instanceof Protocol.HandOverQuery q) {
      out.writeLong(q.version());
      WireIo.writeNode(out, q.from());
      out.writeInt(q.owners().size());
      for (UniqueAddress owner : q.owners()) {
        WireIo.writeNode(out, owner);
      }
    } else if (o instanceof Protocol.HandOverDone d) {
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
    } else if (o instanceof ShardRegion.StartEntity e) {
      out.writeUTF(e.entityId());
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
      case "Q" -> readQuery(in);
      case "D" -> new Protocol.HandOverDone(in.readLong(), WireIo.readNode(in));
      case "W" -> RegionActor.WhenHandedOver.INSTANCE;
      case "H" -> new RegionActor.HandedOver(in.readLong());
      case "C" -> new Protocol.LeaveCheck(in.readLong(), WireIo.readNode(in));
      case "K" -> new Protocol.LeaveChecked(in.readLong(), WireIo.readNode(in));
      case "S" -> new ShardRegion.StartEntity(WireIo.readString(in));
      default -> throw new IllegalArgumentException("unknown sharding message manifest '" + manifest + "'");
    };
  }

  private static Protocol.HandOverQuery readQuery(DataInputStream in) throws IOException {
    long version = in.readLong();
    UniqueAddress from = WireIo.readNode(in);
    int n = in.readInt();
    if (n < 0 || n > MAX_OWNERS) {
      throw new IllegalArgumentException("a hand-over query with " + n + " owners (0 to " + MAX_OWNERS + ")");
    }
    List<UniqueAddress> owners = new ArrayList<>(Math.min(n, 64));
    for (int i = 0; i < n; i++) {
      owners.add(WireIo.readNode(in));
    }
    return new Protocol.HandOverQuery(version, from, owners);
  }
}
