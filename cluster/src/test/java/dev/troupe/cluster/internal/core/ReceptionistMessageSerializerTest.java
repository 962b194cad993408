package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.receptionist.Protocol;
import dev.troupe.serialization.Serialization;
import dev.troupe.testkit.TestKit;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The receptionist directories' messages (33) on the wire: both kinds round-trip through the
 * registry the binding in reference.conf picks; counts over the bounds, truncated or padded frames
 * and unknown manifests are refused with an error that says what is wrong.
 */
class ReceptionistMessageSerializerTest {
  private static final UniqueAddress NODE = new UniqueAddress(Address.remote("sys", "127.0.0.1", 2552), 42);
  private final ClusterNodes nodes = new ClusterNodes();

  @AfterEach
  void stop() {
    nodes.close();
  }

  @Test
  void bothMessagesRoundTripThroughTheirBinding() {
    ActorSystem system = nodes.start("rser", "in-memory");
    ActorRef a = new TestKit(system).getRef();
    ActorRef b = new TestKit(system).getRef();
    Serialization registry = Serialization.get(system);
    List<Object> all = List.of(
        new Protocol.State(NODE, true, Map.of("x.Msg#one", Set.of(a, b), "x.Msg#two", Set.of(b))),
        new Protocol.State(NODE, false, Map.of()),
        new Protocol.Update(NODE, "x.Msg#one", Set.of(a)),
        new Protocol.Update(NODE, "x.Msg#one", Set.of()));
    for (Object m : all) {
      var s = registry.serialize(m);
      assertEquals(33, s.serializerId(), "serializer of " + m);
      assertEquals(m, registry.deserialize(s.serializerId(), s.manifest(), s.bytes()), m.toString());
    }
  }

  @Test
  void malformedOrOversizedInputIsRefusedNamingWhatIsWrong() throws IOException {
    ActorSystem system = nodes.start("rbad", "in-memory");
    ReceptionistMessageSerializer ser = new ReceptionistMessageSerializer(system);
    byte[] update = ser.toBinary(new Protocol.Update(NODE, "x.Msg#one", Set.of(new TestKit(system).getRef())));

    assertRefused(ser, update, "Z", "manifest Z");
    assertRefused(ser, Arrays.copyOf(update, update.length - 2), "U", "malformed receptionist message U");
    assertRefused(ser, Arrays.copyOf(update, update.length + 1), "U", "1 extra bytes");

    // a state that claims more services than a node may list, with no bytes behind the count
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      WireIo.writeNode(out, NODE);
      out.writeBoolean(false);
      out.writeInt(Protocol.MAX_SERVICES + 1);
    }
    assertRefused(ser, bytes.toByteArray(), "S", (Protocol.MAX_SERVICES + 1) + " services (at most " + Protocol.MAX_SERVICES + ")");

    // an update that claims more instances than a node may list in all
    bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      WireIo.writeNode(out, NODE);
      out.writeUTF("x.Msg#one");
      out.writeInt(Protocol.MAX_INSTANCES + 1);
    }
    assertRefused(ser, bytes.toByteArray(), "U", (Protocol.MAX_INSTANCES + 1) + " instances (at most " + Protocol.MAX_INSTANCES + ")");

    // an update with a negative count of instances
    bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      WireIo.writeNode(out, NODE);
      out.writeUTF("x.Msg#one");
      out.writeInt(-1);
    }
    assertRefused(ser, bytes.toByteArray(), "U", "-1 instances");
  }

  private static void assertRefused(ReceptionistMessageSerializer ser, byte[] bytes, String manifest, String expected) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ser.fromBinary(bytes, manifest));
    assertTrue(e.getMessage().contains(expected), "expected \"" + expected + "\" in: " + e.getMessage());
  }
}
