package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.Address;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The core actors' messages on the wire: every kind round-trips; malformed bytes are refused clearly. */
class ClusterMessageSerializerTest {
  private final ClusterMessageSerializer serializer = new ClusterMessageSerializer();
  private static final Address NODE = Address.remote("sys", "127.0.0.1", 2552);

  @Test
  void everyMessageRoundTrips() {
    List<CoreMessage> all = List.of(
        new CoreMessage.GetEndpoint(),
        new CoreMessage.Endpoint("in-memory:7"),
        new CoreMessage.Endpoint(""),
        new CoreMessage.Leaving(NODE, 42),
        new CoreMessage.LeavingAck(NODE, -3),
        new CoreMessage.Down(NODE, Long.MAX_VALUE),
        new CoreMessage.LeaveRequest(NODE));
    for (CoreMessage m : all) {
      assertEquals(m, serializer.fromBinary(serializer.toBinary(m), serializer.manifest(m)), m.toString());
    }
  }

  @Test
  void malformedInputIsRefusedNamingWhatIsWrong() {
    byte[] down = serializer.toBinary(new CoreMessage.Down(NODE, 1));
    IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> serializer.fromBinary(down, "Z"));
    assertTrue(unknown.getMessage().contains("manifest 'Z'"), unknown.getMessage());
    IllegalArgumentException truncated = assertThrows(IllegalArgumentException.class,
        () -> serializer.fromBinary(Arrays.copyOf(down, down.length - 3), "D"));
    assertTrue(truncated.getMessage().contains("malformed cluster message D"), truncated.getMessage());
    byte[] longer = Arrays.copyOf(down, down.length + 1);
    assertThrows(IllegalArgumentException.class, () -> serializer.fromBinary(longer, "D"));
    byte[] notAnAddress = serializer.toBinary(new CoreMessage.Endpoint("no address here"));
    assertThrows(IllegalArgumentException.class, () -> serializer.fromBinary(notAnAddress, "R"));
    byte[] tooLong = serializer.toBinary(new CoreMessage.Endpoint("x".repeat(WireIo.MAX_STRING + 1)));
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> serializer.fromBinary(tooLong, "E"));
    assertTrue(refused.getMessage().contains("cluster message E") && refused.getMessage().contains("1024"), refused.getMessage());
  }
}
