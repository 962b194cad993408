package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.Serialized;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;

/**
 * The pieces the sharding and singleton serializers share: a node as its address text and uid, an
 * actor ref through the system's registry, both bounded on read.
 */
final class WireIo {
  /** The longest address, path or manifest accepted from a peer, in bytes. */
  static final int MAX_STRING = 1024;

  private WireIo() {}

  static void writeNode(DataOutputStream out, UniqueAddress node) throws IOException {
    out.writeUTF(node.address().toString());
    out.writeLong(node.uid());
  }

  static UniqueAddress readNode(DataInputStream in) throws IOException {
    String text = readString(in);
    Address a;
    try {
      a = Address.parse(text);
    } catch (RuntimeException e) {
      throw new NotSerializableException("malformed node address: " + e.getMessage());
    }
    return new UniqueAddress(a, in.readLong());
  }

  /** Reads a modified-UTF-8 string (its 2-byte length bounds it to 64 KiB) and refuses a long one. */
  static String readString(DataInputStream in) throws IOException {
    String s = in.readUTF();
    if (s.length() > MAX_STRING) {
      throw new NotSerializableException("a string of " + s.length() + " chars (at most " + MAX_STRING + ")");
    }
    return s;
  }

  static void writeRef(DataOutputStream out, ActorSystem system, ActorRef ref) throws IOException {
    Serialized s = Serialization.get(system).serialize(ref);
    out.writeInt(s.serializerId());
    out.writeUTF(s.manifest());
    out.writeShort(s.bytes().length);
    out.write(s.bytes());
  }

  static ActorRef readRef(DataInputStream in, ActorSystem system) throws IOException {
    int id = in.readInt();
    String manifest = readString(in);
    int len = in.readUnsignedShort();
    if (len > MAX_STRING) {
      throw new NotSerializableException("an actor ref of " + len + " bytes (at most " + MAX_STRING + ")");
    }
    byte[] b = new byte[len];
    in.readFully(b);
    Object o;
    try {
      o = Serialization.get(system).deserialize(id, manifest, b);
    } catch (RuntimeException e) {
      throw new NotSerializableException("malformed actor ref: " + e.getMessage());
    }
    if (!(o instanceof ActorRef r)) {
      throw new NotSerializableException("expected an actor ref, read a " + o.getClass().getName());
    }
    return r;
  }
}
