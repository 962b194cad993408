package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.internal.pubsub.Relay;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.Serialized;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The publish-subscribe relay (35) on the wire: it round-trips through its binding with the message
 * inside written by that message's own serializer; truncated, padded or lying frames, a key of no
 * listing kind, a relay inside a relay and random bytes are refused with an error that says what is
 * wrong, never with another exception.
 */
class PubSubMessageSerializerTest {
  private final ClusterNodes nodes = new ClusterNodes();

  @AfterEach
  void stop() {
    nodes.close();
  }

  private static byte[] frame(String key, int serializerId, String manifest, int claimed, byte[] body) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeUTF(key);
      out.writeInt(serializerId);
      out.writeUTF(manifest);
      out.writeInt(claimed);
      out.write(body);
    }
    return bytes.toByteArray();
  }

  @Test
  void aRelayRoundTripsWithItsMessageInside() {
    ActorSystem system = nodes.start("psser", "in-memory");
    Serialization registry = Serialization.get(system);
    for (Relay r : new Relay[] {new Relay("tnews", "hello"), new Relay("gjobs\0workers", "job"),
        new Relay("p/user/orders", "order")}) {
      Serialized s = registry.serialize(r);
      assertEquals(PubSubMessageSerializer.IDENTIFIER, s.serializerId());
      assertEquals(r, registry.deserialize(s.serializerId(), s.manifest(), s.bytes()));
    }
  }

  @Test
  void malformedInputIsRefusedNamingWhatIsWrong() throws IOException {
    ActorSystem system = nodes.start("psbad", "in-memory");
    PubSubMessageSerializer ser = new PubSubMessageSerializer(system);
    byte[] good = ser.toBinary(new Relay("tnews", "hello"));
    Serialized inner = Serialization.get(system).serialize("hello");

    assertRefused(ser, good, "Z", "manifest Z");
    assertRefused(ser, Arrays.copyOf(good, good.length - 1), "R", "claims");
    assertRefused(ser, Arrays.copyOf(good, good.length + 3), "R", "claims");
    assertRefused(ser, frame("xnews", inner.serializerId(), inner.manifest(), inner.bytes().length, inner.bytes()), "R",
        "names no topic");
    assertRefused(ser, frame("t", inner.serializerId(), inner.manifest(), inner.bytes().length, inner.bytes()), "R",
        "names no topic");
    assertRefused(ser, frame("tnews", PubSubMessageSerializer.IDENTIFIER, "R", good.length, good), "R",
        "inside another");
    assertRefused(ser, frame("tnews", inner.serializerId(), inner.manifest(), -1, new byte[0]), "R", "claims -1");
    assertThrows(IllegalArgumentException.class, () -> ser.toBinary(new Relay("tnews", new Relay("tnews", "x"))));

    // random bytes and random cuts of a good frame: refused as malformed, never another failure
    SplittableRandom random = new SplittableRandom(35);
    for (int i = 0; i < 2000; i++) {
      byte[] b;
      if (i % 2 == 0) {
        b = new byte[random.nextInt(64)];
        for (int k = 0; k < b.length; k++) {
          b[k] = (byte) random.nextInt(256);
        }
      } else {
        b = good.clone();
        b[random.nextInt(b.length)] = (byte) random.nextInt(256);
      }
      try {
        ser.fromBinary(b, "R");
      } catch (IllegalArgumentException expected) {
        // refused
      }
    }
  }

  private static void assertRefused(PubSubMessageSerializer ser, byte[] bytes, String manifest, String says) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ser.fromBinary(bytes, manifest));
    assertTrue(e.getMessage().contains(says), e.getMessage());
  }
}
