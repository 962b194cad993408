package dev.troupe.cluster.sharding.typed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.sharding.typed.internal.ShardingEnvelopeSerializer;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.SerializationException;
import dev.troupe.serialization.Serialized;
import dev.troupe.testkit.TestKit;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The envelope's serializer through the system's registry: a round trip, and bytes a peer may send
 * (cut short, claiming more than they hold, an envelope inside an envelope, noise), each refused
 * with an exception of the serializer's contract, never anything else.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardingEnvelopeSerializerTest {
  /** A message of the test, written by Jackson. */
  record Note(String text, int n) {}

  private ActorSystem system;
  private Serialization serialization;

  @BeforeAll
  void start() {
    system = ActorSystem.create("envelopes", ConfigFactory.parseString("troupe.actor.provider = remote\n"
        + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
        + "troupe.remote.canonical.port = 0\n"
        + "troupe.serialization.bindings { \"" + Note.class.getName() + "\" = jackson-json }\n"));
    serialization = Serialization.get(system);
  }

  @AfterAll
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  private Serialized envelope() {
    return serialization.serialize(new ShardingEnvelope<>("entity-\u00e9", new Note("hello", 3)));
  }

  @Test
  void anEnvelopeMakesTheRoundTripWithItsMessageWrittenByTheMessagesSerializer() {
    Serialized s = envelope();
    assertEquals(ShardingEnvelopeSerializer.IDENTIFIER, s.serializerId());
    assertEquals("E", s.manifest());
    assertEquals(new ShardingEnvelope<>("entity-\u00e9", new Note("hello", 3)),
        serialization.deserialize(s.serializerId(), s.manifest(), s.bytes()));
  }

  @Test
  void anEnvelopeInsideAnEnvelopeIsNeitherWrittenNorRead() {
    SerializationException w = assertThrows(SerializationException.class,
        () -> serialization.serialize(new ShardingEnvelope<>("outer", new ShardingEnvelope<>("inner", new Note("x", 1)))));
    assertTrue(w.getMessage().contains("inside another"), w.getMessage());
    // the same bytes a peer could build by hand: an envelope whose message claims to be an envelope
    byte[] inner = envelope().bytes();
    ByteBuffer b = ByteBuffer.allocate(2 + 5 + 4 + 2 + 1 + 4 + inner.length);
    b.putShort((short) 5).put("outer".getBytes()).putInt(ShardingEnvelopeSerializer.IDENTIFIER)
        .putShort((short) 1).put((byte) 'E').putInt(inner.length).put(inner);
    SerializationException r = assertThrows(SerializationException.class,
        () -> serialization.deserialize(ShardingEnvelopeSerializer.IDENTIFIER, "E", b.array()));
    assertTrue(r.getMessage().contains("inside another"), r.getMessage());
  }

  @Test
  void bytesCutShortClaimingTooMuchOrNoiseAreRefusedCleanly() {
    byte[] whole = envelope().bytes();
    for (int n = 0; n < whole.length; n++) {
      refused(Arrays.copyOf(whole, n), "E", "cut to " + n + " bytes");
    }
    byte[] longer = Arrays.copyOf(whole, whole.length + 1);
    refused(longer, "E", "a byte after the message");
    byte[] claim = whole.clone();
    claim[0] = (byte) 0x7f; // the id claims 32 k bytes
    refused(claim, "E", "an id over the bound");
    byte[] emptyId = ByteBuffer.allocate(2 + 4 + 2 + 4).putShort((short) 0).putInt(1).putShort((short) 0).putInt(0)
        .array();
    refused(emptyId, "E", "an empty id");
    refused(whole, "X", "an unknown manifest");
    SplittableRandom random = new SplittableRandom(34);
    for (int i = 0; i < 2000; i++) {
      byte[] noise = new byte[random.nextInt(64)];
      for (int j = 0; j < noise.length; j++) {
        noise[j] = (byte) random.nextInt(256);
      }
      if (random.nextBoolean() && noise.length > 2) {
        noise[0] = 0;
        noise[1] = (byte) random.nextInt(8); // a plausible id length, so that the later fields are read
      }
      refused(noise, "E", "noise " + i);
    }
    assertArrayEquals(whole, envelope().bytes(), "the serializer is deterministic");
  }

  private void refused(byte[] bytes, String manifest, String what) {
    SerializationException e = assertThrows(SerializationException.class,
        () -> serialization.deserialize(ShardingEnvelopeSerializer.IDENTIFIER, manifest, bytes), what);
    Throwable cause = e.getCause();
    assertTrue(cause instanceof IllegalArgumentException || cause instanceof SerializationException,
        what + ": refused with " + cause);
    assertInstanceOf(RuntimeException.class, cause);
  }
}
