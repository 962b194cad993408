package dev.troupe.cluster.internal.core;

import dev.troupe.actor.Address;
import dev.troupe.serialization.Serializer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * The cluster's {@link CoreMessage}s on the wire, identifier 30, with a one-letter manifest: {@code
 * G} get-endpoint (no bytes), {@code E} endpoint (a string), {@code L} leaving, {@code A} leaving
 * acknowledged, {@code D} down (each an address as text and a uid), {@code R} leave request (an
 * address). Strings are modified UTF-8 of at most {@value WireIo#MAX_STRING} bytes; anything else is
 * refused with an {@link IllegalArgumentException}, and the transport drops that message.
 */
public final class ClusterMessageSerializer implements Serializer {
  /** For the serialization registry. */
  public ClusterMessageSerializer() {}

  @Override
  public int identifier() {
    return 30;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof CoreMessage.GetEndpoint) {
      return "G";
    } else if (o instanceof CoreMessage.Endpoint) {
      return "E";
    } else if (o instanceof CoreMessage.Leaving) {
      return "L";
    } else if (o instanceof CoreMessage.LeavingAck) {
      return "A";
    } else if (o instanceof CoreMessage.Down) {
      return "D";
    } else if (o instanceof CoreMessage.LeaveRequest) {
      return "R";
    }
    throw new IllegalArgumentException("not a cluster message: " + o);
  }

  @Override
  public byte[] toBinary(Object o) {
    return WireIo.toBinary(o, 64, ClusterMessageSerializer::write);
  }

  private static void write(Object o, DataOutputStream out) throws IOException {
    if (o instanceof CoreMessage.Endpoint e) {
      out.writeUTF(e.endpoint());
    } else if (o instanceof CoreMessage.Leaving l) {
      node(out, l.address(), l.uid());
    } else if (o instanceof CoreMessage.LeavingAck a) {
      node(out, a.address(), a.uid());
    } else if (o instanceof CoreMessage.Down d) {
      node(out, d.address(), d.uid());
    } else if (o instanceof CoreMessage.LeaveRequest r) {
      out.writeUTF(r.address().toString());
    } else if (!(o instanceof CoreMessage.GetEndpoint)) {
      throw new IllegalArgumentException("not a cluster message: " + o);
    }
  }

  private static void node(DataOutputStream out, Address address, long uid) throws IOException {
    out.writeUTF(address.toString());
    out.writeLong(uid);
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return WireIo.fromBinary("cluster", bytes, manifest, ClusterMessageSerializer::read);
  }

  private static CoreMessage read(String manifest, DataInputStream in) throws IOException {
    return switch (manifest) {
      case "G" -> new CoreMessage.GetEndpoint();
      case "E" -> new CoreMessage.Endpoint(WireIo.readString(in));
      case "L" -> new CoreMessage.Leaving(address(in), in.readLong());
      case "A" -> new CoreMessage.LeavingAck(address(in), in.readLong());
      case "D" -> new CoreMessage.Down(address(in), in.readLong());
      case "R" -> new CoreMessage.LeaveRequest(address(in));
      default -> throw new IllegalArgumentException("unknown cluster message manifest '" + manifest + "'");
    };
  }

  private static Address address(DataInputStream in) throws IOException {
    return Address.parse(WireIo.readString(in));
  }
}
