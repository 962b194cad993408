package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.internal.singleton.Protocol;
import dev.troupe.serialization.Serializer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * The singleton managers' and proxies' {@link Protocol.Message}s, identifier 32, with a one-letter
 * manifest: {@code T} hand-over-to-me, {@code P} hand-over-in-progress, {@code D} hand-over-done
 * (each a node as address text and uid), {@code R} register-proxy and {@code S} proxy-stopped (no
 * bytes), {@code I} singleton-is (the instance's ref, then its node), {@code M} singleton-moving
 * (the instance's ref). A ref is written by the system's ref serializer, at most {@value
 * WireIo#MAX_STRING} bytes; a malformed frame fails with an {@link IllegalArgumentException} (the
 * transport drops that message).
 */
public final class SingletonMessageSerializer implements Serializer {
  private final ActorSystem system;
  // bound once, not per message: the frame calls them for every message this node sends or receives
  private final WireIo.BodyWriter writer = this::write;
  private final WireIo.BodyReader reader = this::read;

  /** @param system the system whose registry writes and resolves the refs */
  public SingletonMessageSerializer(ActorSystem system) {
    this.system = system;
  }

  @Override
  public int identifier() {
    return 32;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof Protocol.HandOverToMe) {
      return "T";
    } else if (o instanceof Protocol.HandOverInProgress) {
      return "P";
    } else if (o instanceof Protocol.HandOverDone) {
      return "D";
    } else if (o instanceof Protocol.RegisterProxy) {
      return "R";
    } else if (o instanceof Protocol.ProxyStopped) {
      return "S";
    } else if (o instanceof Protocol.SingletonIs) {
      return "I";
    } else if (o instanceof Protocol.SingletonMoving) {
      return "M";
    }
    throw new IllegalArgumentException("not a singleton message: " + o);
  }

  @Override
  public byte[] toBinary(Object o) {
    return WireIo.toBinary(o, 96, writer);
  }

  private void write(Object o, DataOutputStream out) throws IOException {
    if (o instanceof Protocol.HandOverToMe m) {
      WireIo.writeNode(out, m.from());
    } else if (o instanceof Protocol.HandOverInProgress m) {
      WireIo.writeNode(out, m.from());
    } else if (o instanceof Protocol.HandOverDone m) {
      WireIo.writeNode(out, m.from());
    } else if (o instanceof Protocol.SingletonIs m) {
      WireIo.writeRef(out, system, m.instance());
      WireIo.writeNode(out, m.node());
    } else if (o instanceof Protocol.SingletonMoving m) {
      WireIo.writeRef(out, system, m.instance());
    } else if (!(o instanceof Protocol.RegisterProxy) && !(o instanceof Protocol.ProxyStopped)) {
      throw new IllegalArgumentException("not a singleton message: " + o);
    }
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return WireIo.fromBinary("singleton", bytes, manifest, reader);
  }

  private Protocol.Message read(String manifest, DataInputStream in) throws IOException {
    return switch (manifest) {
      case "T" -> new Protocol.HandOverToMe(WireIo.readNode(in));
      case "P" -> new Protocol.HandOverInProgress(WireIo.readNode(in));
      case "D" -> new Protocol.HandOverDone(WireIo.readNode(in));
      case "R" -> new Protocol.RegisterProxy();
      case "S" -> new Protocol.ProxyStopped();
      case "I" -> new Protocol.SingletonIs(WireIo.readRef(in, system), WireIo.readNode(in));
      case "M" -> new Protocol.SingletonMoving(WireIo.readRef(in, system));
      default -> throw new IllegalArgumentException("unknown singleton message manifest '" + manifest + "'");
    };
  }
}
