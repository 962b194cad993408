package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.Address;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.sharding.Protocol;
import dev.troupe.cluster.internal.sharding.RegionActor;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The frame the cluster's three serializers (30, 31, 32) share: the bytes each writes are its
 * fields and nothing else (pinned here, so a change to the frame cannot move the wire format), and
 * a peer's bytes are used to the last one or refused naming the serializer and the manifest.
 */
class WireIoTest {
  private static final Address ADDRESS = Address.remote("sys", "127.0.0.1", 2552);
  private static final UniqueAddress NODE = new UniqueAddress(ADDRESS, 42);

  private interface Fields {
    void write(DataOutputStream out) throws IOException;
  }

  private static byte[] fields(Fields f) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      f.write(out);
    }
    return bytes.toByteArray();
  }

  @Test
  void eachSerializerWritesItsFieldsWithNothingAround() throws IOException {
    byte[] node = fields(out -> {
      out.writeUTF(ADDRESS.toString());
      out.writeLong(42);
    });
    byte[] versionAndNode = fields(out -> {
      out.writeLong(7);
      out.write(node);
    });

    assertArrayEquals(versionAndNode, new ShardingMessageSerializer().toBinary(new Protocol.HandOverDone(7, NODE)));
    assertArrayEquals(new byte[0], new ShardingMessageSerializer().toBinary(RegionActor.WhenHandedOver.INSTANCE));
    assertArrayEquals(node, new SingletonMessageSerializer(null).toBinary(
        new dev.troupe.cluster.internal.singleton.Protocol.HandOverToMe(NODE)));
    assertArrayEquals(node, new ClusterMessageSerializer().toBinary(new CoreMessage.Down(ADDRESS, 42)));
  }

  @Test
  void bytesLeftOverAreRefusedNamingTheSerializerAndManifest() throws IOException {
    byte[] longer = fields(out -> {
      out.writeLong(7);
      out.writeByte(0);
    });
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new ShardingMessageSerializer().fromBinary(longer, "H"));
    assertEquals("sharding message H has 1 extra bytes", e.getMessage());
  }

  @Test
  void shortBytesAreRefusedAsMalformedWithTheCause() {
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class, () -> new SingletonMessageSerializer(null).fromBinary(new byte[] {0, 9, 'a'}, "P"));
    assertTrue(e.getMessage().startsWith("malformed singleton message P: java.io.EOFException"), e.getMessage());
  }

  @Test
  void aMessageTheSerializerDoesNotKnowIsRefusedAsItSaysOnBothSides() {
    IllegalArgumentException write =
        assertThrows(IllegalArgumentException.class, () -> new ClusterMessageSerializer().toBinary("hello"));
    assertEquals("not a cluster message: hello", write.getMessage());
    IllegalArgumentException read =
        assertThrows(IllegalArgumentException.class, () -> new ClusterMessageSerializer().fromBinary(new byte[0], "Q"));
    assertEquals("unknown cluster message manifest 'Q'", read.getMessage());
  }
}
