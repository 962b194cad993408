package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.sharding.RegionActor;
import dev.troupe.cluster.internal.singleton.Protocol;
import dev.troupe.serialization.Serialization;
import dev.troupe.testkit.TestKit;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Sharding's (31) and the singletons' (32) messages on the wire: every kind round-trips through the
 * registry the binding in reference.conf picks; malformed or oversized bytes are refused with a clear
 * error.
 */
class ShardingSingletonSerializerTest {
  private static final UniqueAddress NODE = new UniqueAddress(Address.remote("sys", "127.0.0.1", 2552), 42);
  private final ClusterNodes nodes = new ClusterNodes();

  @AfterEach
  void stop() {
    nodes.close();
  }

  @Test
  void everyMessageRoundTripsThroughItsBinding() {
    ActorSystem system = nodes.start("ser", "in-memory");
    ActorRef ref = new TestKit(system).getRef();
    Serialization registry = Serialization.get(system);
    List<Object> all = List.of(
        new dev.troupe.cluster.internal.sharding.Protocol.HandOverQuery(5, NODE, List.of(NODE,
            new UniqueAddress(Address.remote("sys", "127.0.0.2", 2552), -3))),
        new dev.troupe.cluster.internal.sharding.Protocol.HandOverQuery(1, NODE, List.of()),
        new dev.troupe.cluster.internal.sharding.Protocol.HandOverDone(7, NODE),
        RegionActor.WhenHandedOver.INSTANCE,
        new RegionActor.HandedOver(-1),
        new dev.troupe.cluster.internal.sharding.Protocol.LeaveCheck(3, NODE),
        new dev.troupe.cluster.internal.sharding.Protocol.LeaveChecked(Long.MAX_VALUE, NODE),
        new dev.troupe.cluster.sharding.ShardRegion.StartEntity("entity 7/ä"),
        new Protocol.HandOverToMe(NODE),
        new Protocol.HandOverInProgress(NODE),
        new Protocol.HandOverDone(NODE),
        new Protocol.RegisterProxy(),
        new Protocol.ProxyStopped(),
        new Protocol.SingletonIs(ref, NODE),
        new Protocol.SingletonMoving(ref));
    for (Object m : all) {
      var s = registry.serialize(m);
      int expected = m instanceof Protocol.Message ? 32 : 31;
      assertEquals(expected, s.serializerId(), "serializer of " + m);
      assertEquals(m, registry.deserialize(s.serializerId(), s.manifest(), s.bytes()), m.toString());
    }
  }

  @Test
  void malformedInputIsRefusedNamingWhatIsWrong() {
    ShardingMessageSerializer sharding = new ShardingMessageSerializer();
    byte[] done = sharding.toBinary(new dev.troupe.cluster.internal.sharding.Protocol.HandOverDone(7, NODE));
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> sharding.fromBinary(done, "Z"));
    assertTrue(unknown.getMessage().contains("manifest 'Z'"), unknown.getMessage());
    IllegalArgumentException truncated = assertThrows(IllegalArgumentException.class,
        () -> sharding.fromBinary(Arrays.copyOf(done, done.length - 3), "D"));
    assertTrue(truncated.getMessage().contains("malformed sharding message D"), truncated.getMessage());
    assertThrows(IllegalArgumentException.class, () -> sharding.fromBinary(Arrays.copyOf(done, done.length + 1), "D"));
    // a hand-over query that claims more owners than the bound: refused before anything is allocated
    byte[] query = sharding.toBinary(new dev.troupe.cluster.internal.sharding.Protocol.HandOverQuery(1, NODE, List.of()));
    int count = query.length - 4;
    query[count] = 0x7f;
    IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class, () -> sharding.fromBinary(query, "Q"));
    assertTrue(tooMany.getMessage().contains("owners"), tooMany.getMessage());

    SingletonMessageSerializer singleton = new SingletonMessageSerializer(null);
    byte[] toMe = singleton.toBinary(new Protocol.HandOverToMe(NODE));
    assertThrows(IllegalArgumentException.class, () -> singleton.fromBinary(Arrays.copyOf(toMe, 5), "T"));
    assertThrows(IllegalArgumentException.class, () -> singleton.fromBinary(new byte[] {1}, "R"));
    // a 64 KiB address string: refused before it is parsed
    byte[] huge = new byte[2 + 60_000 + 8];
    huge[0] = (byte) (60_000 >>> 8);
    huge[1] = (byte) 60_000;
    Arrays.fill(huge, 2, 60_002, (byte) 'a');
    IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class, () -> singleton.fromBinary(huge, "T"));
    assertTrue(tooLong.getMessage().contains("at most"), tooLong.getMessage());
    // the same string as an entity id a peer asks this node to start: refused the same way
    IllegalArgumentException longId = assertThrows(IllegalArgumentException.class,
        () -> sharding.fromBinary(Arrays.copyOf(huge, 60_002), "S"));
    assertTrue(longId.getMessage().contains("at most"), longId.getMessage());
    // a ref field that claims more bytes than the bound
    byte[] bigRef = {0, 0, 0, 4, 0, 0, (byte) 0xff, (byte) 0xff};
    assertThrows(IllegalArgumentException.class, () -> singleton.fromBinary(bigRef, "M"));
  }

  /**
   * What a hostile peer can put in a hand-over query ({@code Q}): absurd owner counts (negative,
   * one above the bound, the largest int, the bound itself with no owner behind it), an owner's
   * address as long as the field allows, and thousands of random mutations of a valid query. Each
   * is read as a query or refused with an {@link IllegalArgumentException}; nothing else is thrown,
   * and no count makes the reader allocate by what the count claims.
   */
  /**
   * A copy of {@code valid} changed one of four ways: a byte flipped, cut short, {@code field} (a
   * count or length rewritten), or a random tail appended.
   */
  private static byte[] mutated(byte[] valid, java.util.Random random, java.util.function.UnaryOperator<byte[]> field) {
    byte[] m = Arrays.copyOf(valid, valid.length);
    switch (random.nextInt(4)) {
      case 0 -> m[random.nextInt(m.length)] = (byte) random.nextInt(256);
      case 1 -> m = Arrays.copyOf(m, random.nextInt(m.length));
      case 2 -> m = field.apply(m);
      default -> {
        byte[] tail = new byte[random.nextInt(64)];
        random.nextBytes(tail);
        byte[] longer = Arrays.copyOf(m, m.length + tail.length);
        System.arraycopy(tail, 0, longer, m.length, tail.length);
        m = longer;
      }
    }
    return m;
  }

  /**
   * What a peer can put in a {@code StartEntity} ({@code S}): flipped bytes, cuts, lengths and random
   * tails of a valid frame are each read as a {@code StartEntity} (of at most 1024 characters) or
   * refused with an {@link IllegalArgumentException}; nothing else is thrown.
   */
  @Test
  void startEntitiesWithMutatedBytesAreReadOrRefusedNeverAnythingElse() {
    ShardingMessageSerializer sharding = new ShardingMessageSerializer();
    byte[] valid = sharding.toBinary(new dev.troupe.cluster.sharding.ShardRegion.StartEntity("entity-" + "x".repeat(200)));
    java.util.Random random = new java.util.Random(27);
    int read = 0;
    int refused = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] m = mutated(valid, random, b -> {
        b[0] = (byte) random.nextInt(256); // the length's two bytes
        b[1] = (byte) random.nextInt(256);
        return b;
      });
      try {
        Object o = sharding.fromBinary(m, "S");
        assertTrue(o instanceof dev.troupe.cluster.sharding.ShardRegion.StartEntity s && s.entityId().length() <= 1024,
            String.valueOf(o));
        read++;
      } catch (IllegalArgumentException expected) {
        refused++;
      }
    }
    assertTrue(read > 0 && refused > 0, "both outcomes occur: read " + read + ", refused " + refused);
  }

  @Test
  void handOverQueriesWithAbsurdCountsOrMutatedBytesAreReadOrRefusedNeverAnythingElse() throws Exception {
    ShardingMessageSerializer sharding = new ShardingMessageSerializer();
    byte[] empty = sharding.toBinary(new dev.troupe.cluster.internal.sharding.Protocol.HandOverQuery(1, NODE, List.of()));
    for (int count : new int[] {-1, Integer.MIN_VALUE, ShardingMessageSerializer.MAX_OWNERS + 1, Integer.MAX_VALUE}) {
      byte[] q = withCount(empty, count);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sharding.fromBinary(q, "Q"), "count " + count);
      assertTrue(e.getMessage().contains(count + " owners"), e.getMessage());
    }
    // the largest count allowed, with no owner behind it: the first owner is missing
    byte[] claimsMax = withCount(empty, ShardingMessageSerializer.MAX_OWNERS);
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> sharding.fromBinary(claimsMax, "Q"));
    assertTrue(missing.getMessage().contains("malformed sharding message Q"), missing.getMessage());
    // one owner whose address is a 60,000-character string: refused before it is parsed
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    java.io.DataOutputStream out = new java.io.DataOutputStream(b);
    out.write(withCount(empty, 1));
    out.writeShort(60_000);
    out.write(new byte[60_000]);
    out.writeLong(1);
    IllegalArgumentException longAddress = assertThrows(IllegalArgumentException.class, () -> sharding.fromBinary(b.toByteArray(), "Q"));
    assertTrue(longAddress.getMessage().contains("at most"), longAddress.getMessage());

    // random mutations of a query with owners: flipped bytes, cuts, counts, random tails
    List<UniqueAddress> owners = new java.util.ArrayList<>();
    for (int i = 0; i < 20; i++) {
      owners.add(new UniqueAddress(Address.remote("sys", "127.0.0." + (i + 1), 2552), i + 1));
    }
    byte[] valid = sharding.toBinary(new dev.troupe.cluster.internal.sharding.Protocol.HandOverQuery(9, NODE, owners));
    java.util.Random random = new java.util.Random(18);
    int read = 0;
    int refused = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] m = mutated(valid, random,
          frame -> withCount(frame, random.nextBoolean() ? random.nextInt() : random.nextInt(ShardingMessageSerializer.MAX_OWNERS + 2)));
      try {
        Object q = sharding.fromBinary(m, "Q");
        assertTrue(q instanceof dev.troupe.cluster.internal.sharding.Protocol.HandOverQuery, String.valueOf(q));
        read++;
      } catch (IllegalArgumentException expected) {
        refused++;
      }
    }
    assertTrue(read > 0 && refused > 0, read + " read, " + refused + " refused");
  }

  /** @return {@code query} (a serialized {@code Q} of {@link #NODE}) with its owner count set to {@code count} */
  private static byte[] withCount(byte[] query, int count) {
    int at = 8 + 2 + NODE.address().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 8;
    byte[] q = Arrays.copyOf(query, Math.max(query.length, at + 4));
    q[at] = (byte) (count >>> 24);
    q[at + 1] = (byte) (count >>> 16);
    q[at + 2] = (byte) (count >>> 8);
    q[at + 3] = (byte) count;
    return q;
  }
}
