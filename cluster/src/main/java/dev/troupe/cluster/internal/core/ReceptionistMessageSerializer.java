package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.internal.receptionist.Protocol;
import dev.troupe.serialization.Serializer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The receptionist directories' {@link Protocol.Message}s, identifier 33, with a one-letter
 * manifest: {@code S} a node's state (the node as address text and uid, whether to answer, the
 * number of services, then each service's name, the number of its instances and each instance's
 * ref) and {@code U} an update (the node, the service's name, its instances). Names are at most
 * {@value Protocol#MAX_NAME} chars and refs are written by the system's ref serializer; more than
 * {@link Protocol#MAX_SERVICES} services, more than {@link Protocol#MAX_INSTANCES} instances in one
 * message (all services together), or a malformed frame, fails with an {@link
 * IllegalArgumentException} before the rest is read (the transport drops that message).
 */
public final class ReceptionistMessageSerializer implements Serializer {
  private final ActorSystem system;
  // bound once, not per message
  private final WireIo.BodyWriter writer = this::write;
  private final WireIo.BodyReader reader = this::read;

  /** @param system the system whose registry writes and resolves the refs */
  public ReceptionistMessageSerializer(ActorSystem system) {
    this.system = system;
  }

  @Override
  public int identifier() {
    return 33;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof Protocol.State) {
      return "S";
    } else if (o instanceof Protocol.Update) {
      return "U";
    }
    throw new IllegalArgumentException("not a receptionist directory's message: " + o);
  }

  @Override
  public byte[] toBinary(Object o) {
    return WireIo.toBinary(o, 256, writer);
  }

  private void write(Object o, DataOutputStream out) throws IOException {
    if (o instanceof Protocol.State s) {
      WireIo.writeNode(out, s.from());
      out.writeBoolean(s.answerMe());
      out.writeInt(s.services().size());
      for (Map.Entry<String, Set<ActorRef>> e : s.services().entrySet()) {
        writeService(out, e.getKey(), e.getValue());
      }
    } else if (o instanceof Protocol.Update u) {
      WireIo.writeNode(out, u.from());
      writeService(out, u.service(), u.instances());
    } else {
      throw new IllegalArgumentException("not a receptionist directory's message: " + o);
    }
  }

  private void writeService(DataOutputStream out, String name, Set<ActorRef> instances) throws IOException {
    out.writeUTF(name);
    out.writeInt(instances.size());
    for (ActorRef r : instances) {
      WireIo.writeRef(out, system, r);
    }
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return WireIo.fromBinary("receptionist", bytes, manifest, reader);
  }

  private Object read(String manifest, DataInputStream in) throws IOException {
    switch (manifest) {
      case "S" -> {
        var from = WireIo.readNode(in);
        boolean answerMe = in.readBoolean();
        int n = count(in, Protocol.MAX_SERVICES, "services");
        Map<String, Set<ActorRef>> services = new HashMap<>();
        int left = Protocol.MAX_INSTANCES; // of all the services together
        for (int i = 0; i < n; i++) {
          String name = WireIo.readString(in);
          Set<ActorRef> instances = readInstances(in, left);
          left -= instances.size();
          if (services.put(name, instances) != null) {
            throw new NotSerializableException("service " + name + " twice");
          }
        }
        return new Protocol.State(from, answerMe, services);
      }
      case "U" -> {
        var from = WireIo.readNode(in);
        String name = WireIo.readString(in);
        return new Protocol.Update(from, name, readInstances(in, Protocol.MAX_INSTANCES));
      }
      default -> throw new IllegalArgumentException("unknown receptionist directory manifest " + manifest);
    }
  }

  /** Reads a service's instances, at most {@code max} (what is left of the node's bound). */
  private Set<ActorRef> readInstances(DataInputStream in, int max) throws IOException {
    int n = count(in, max, "instances");
    Set<ActorRef> refs = new HashSet<>();
    for (int i = 0; i < n; i++) {
      refs.add(WireIo.readRef(in, system));
    }
    return refs;
  }

  private static int count(DataInputStream in, int max, String what) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > max) {
      throw new NotSerializableException(n + " " + what + " (at most " + max + ")");
    }
    return n;
  }
}
