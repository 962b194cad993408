package dev.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.Identify;
import dev.troupe.actor.Status;
import dev.troupe.runtime.spi.ActorSelectionMessage;
import dev.troupe.serialization.internal.WireReader;
import dev.troupe.testkit.ActorSystemExtension;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Values nested in Troupe's messages (an {@code Identify}'s id, a {@code Status.Success}, an {@code
 * ActorIdentity}'s correlation id, a selection's message): at most {@value WireReader#MAX_DEPTH}
 * deep, refused deeper when written and when read, read in place (no level copies the bytes below
 * it), and nothing a message's bytes make a serializer do comes out of deserialization as an Error.
 */
class NestedValuesTest {
  private static final int MAX = WireReader.MAX_DEPTH;

  @RegisterExtension
  static final ActorSystemExtension TROUPE =
      ActorSystemExtension.perClass(
          "troupe.serialization.serializers { overflowing = \"" + Overflowing.class.getName() + "\", greedy = \""
              + Greedy.class.getName() + "\" }\n");

  /** A foreign serializer whose reading recurses without end, id 4711. */
  public static final class Overflowing extends SerializationConfigTest.Stub {
    public Overflowing() {
      super(4711);
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
      return recurse(bytes.length);
    }

    private static int recurse(int n) {
      return recurse(n + 1) + 1;
    }
  }

  /** A foreign serializer that believes a length no heap holds, id 4712. */
  public static final class Greedy extends SerializationConfigTest.Stub {
    public Greedy() {
      super(4712);
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
      return new byte[Integer.MAX_VALUE]; // as a reader trusting a claimed length would
    }
  }

  private static Serialization serialization() {
    return Serialization.get(TROUPE.system());
  }

  private static Object roundTrip(Object o) {
    Serialized s = serialization().serialize(o);
    return serialization().deserialize(s.serializerId(), s.manifest(), s.bytes());
  }

  /** {@code levels} Identify values around {@code leaf}: the leaf lies {@code levels} deep in the outer one. */
  private static Object identify(int levels, Object leaf) {
    Object v = leaf;
    for (int i = 0; i < levels; i++) {
      v = new Identify(v);
    }
    return v;
  }

  @Test
  void valuesNestedAsDeepAsTheLimitRoundTrip() {
    Object deepest = identify(MAX, 42);
    assertEquals(deepest, roundTrip(deepest));
    Object mixed =
        new Status.Success(
            new ActorIdentity(identify(MAX - 3, new Status.Success("leaf")), Optional.empty()));
    assertEquals(mixed, roundTrip(mixed), "Status.Success, ActorIdentity, Identify and Status.Success nested " + MAX + " deep");
    Object selection = new ActorSelectionMessage(identify(MAX - 1, "id"), List.of("user", "a"));
    assertEquals(selection, roundTrip(selection));
  }

  @Test
  void aMessageNestedOneLevelDeeperIsRefusedWhenWritten() {
    SerializationException e =
        assertThrows(SerializationException.class, () -> serialization().serialize(identify(MAX + 1, 42)));
    assertTrue(e.getMessage().contains("nested more than " + MAX + " deep"), e.getMessage());
    assertThrows(
        SerializationException.class,
        () -> serialization().serialize(new ActorSelectionMessage(identify(MAX, 42), List.of("user"))));
  }

  @Test
  void bytesNestedOneLevelDeeperThanTheLimitAreRefusedWhenRead() {
    byte[] atTheLimit = NestedBomb.identify(MAX);
    assertInstanceOf(Identify.class, serialization().deserialize(NestedBomb.SERIALIZER, NestedBomb.MANIFEST, atTheLimit));
    byte[] deeper = NestedBomb.identify(MAX + 1);
    SerializationException e =
        assertThrows(
            SerializationException.class,
            () -> serialization().deserialize(NestedBomb.SERIALIZER, NestedBomb.MANIFEST, deeper));
    assertTrue(e.getMessage().contains("nested more than " + MAX + " deep"), e.getMessage());
  }

  @Test
  void aFrameFullOfNestedIdentifyIsRefusedAsMalformedNotAnError() {
    byte[] bomb = NestedBomb.identifyOfAtMost(256 * 1024);
    assertTrue(bomb.length > 250 * 1024, "a frame's worth: " + bomb.length);
    SerializationException e =
        assertThrows(
            SerializationException.class, () -> serialization().deserialize(NestedBomb.SERIALIZER, NestedBomb.MANIFEST, bomb));
    assertTrue(e.getMessage().contains("nested more than " + MAX + " deep"), e.getMessage());
  }

  @Test
  void aNestedLengthBeyondTheInputIsRefused() {
    byte[] claim = NestedBomb.varInt(Integer.MAX_VALUE);
    byte[] bytes = new byte[4 + claim.length + 3];
    bytes[0] = 1;
    bytes[1] = NestedBomb.SERIALIZER;
    bytes[2] = 1;
    bytes[3] = 'I';
    System.arraycopy(claim, 0, bytes, 4, claim.length);
    SerializationException e =
        assertThrows(
            SerializationException.class, () -> serialization().deserialize(NestedBomb.SERIALIZER, NestedBomb.MANIFEST, bytes));
    assertTrue(e.getMessage().contains("needs " + Integer.MAX_VALUE + " more bytes"), e.getMessage());
  }

  @Test
  void nestedValuesAreReadInPlaceNotCopiedAtEveryLevel() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "this JVM counts a thread's allocations");
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
    assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
    byte[] leaf = new byte[1 << 20];
    leaf[leaf.length - 1] = 7;
    Object message = new Status.Success(identify(MAX - 1, leaf));
    Serialized s = serialization().serialize(message);
    serialization().deserialize(s.serializerId(), s.manifest(), s.bytes()); // loads and warms what it uses

    long before = threads.getCurrentThreadAllocatedBytes();
    Object read = serialization().deserialize(s.serializerId(), s.manifest(), s.bytes());
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;

    Object v = read;
    for (int i = 0; i < MAX; i++) {
      v = v instanceof Status.Success st ? st.status() : ((Identify) v).messageId();
    }
    assertArrayEquals(leaf, (byte[]) v);
    // the leaf's own array once, and little else (a copy at each of the 32 levels would be 32 MiB)
    assertTrue(allocated < 2L * leaf.length, "allocated " + allocated + " bytes to read a " + leaf.length + "-byte leaf " + MAX + " deep");
  }

  @Test
  void aStackOverflowOrAnOutOfMemoryErrorOfASerializerIsASerializationException() {
    SerializationException overflow =
        assertThrows(SerializationException.class, () -> serialization().deserialize(4711, "", new byte[3]));
    assertInstanceOf(StackOverflowError.class, overflow.getCause());
    SerializationException greedy =
        assertThrows(SerializationException.class, () -> serialization().deserialize(4712, "", new byte[3]));
    assertInstanceOf(OutOfMemoryError.class, greedy.getCause());
  }

  @Test
  void anErrorOfAForeignSerializerNestedInAMessageIsASerializationException() {
    byte[] bytes = {1, (byte) 0xE7, 0x24, 0, 1, 9}; // present, serializer 4711 (varint), manifest "", 1 byte
    assertThrows(SerializationException.class, () -> serialization().deserialize(NestedBomb.SERIALIZER, NestedBomb.MANIFEST, bytes));
  }
}
