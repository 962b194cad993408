package dev.troupe.remote.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.Identify;
import dev.troupe.serialization.Serialization;
import dev.troupe.testkit.ActorSystemExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The soak harness's hand-written values are what the node reads: a nested {@code Identify} as
 * {@link RawFrames} writes it deserializes with Troupe's own serializer, and the bomb's payload is
 * as deep as its size allows.
 */
class RawFramesTest {
  @RegisterExtension
  static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(RemoteSoakTest.PEER_CONFIG);

  @Test
  void aNestedIdentifyWrittenByHandIsReadByTroupesSerializer() {
    byte[] payload = RawFrames.nestedIdentify(3, 1024);

    Object read =
        Serialization.get(TROUPE.system())
            .deserialize(RawFrames.MESSAGES_SERIALIZER, RawFrames.IDENTIFY_MANIFEST, payload);

    assertEquals(new Identify(new Identify(new Identify(new Identify(null)))), read, "three nested in the outermost");
  }

  @Test
  void theBombIsAsDeepAsItsSizeAllows() {
    int max = 256 * 1024 - 256;
    byte[] payload = RawFrames.nestedIdentify(100_000, max);

    assertTrue(payload.length <= max && payload.length > max - 16, payload.length + " bytes");
    int levels = 0;
    for (int i = 0; payload[i] == 1; levels++) {
      i += 4; // presence, serializer id 5, manifest length 1, "I"
      while ((payload[i++] & 0x80) != 0) {
        // the nested length's varint
      }
    }
    assertTrue(levels > 30_000, levels + " levels");
  }
}
