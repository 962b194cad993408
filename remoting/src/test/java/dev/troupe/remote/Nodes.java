package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * What the remoting tests share: the configuration of a node on 127.0.0.1 with an ephemeral port,
 * and Troupe's handshake written and read by hand, for tests that talk to a node over a raw socket.
 */
final class Nodes {
  /** A remote node listening on 127.0.0.1, any free port. */
  static final String REMOTE =
      "troupe.actor.provider = remote\n"
          + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
          + "troupe.remote.canonical.port = 0\n";

  /** How long a test waits for anything to cross loopback (generous: the build box may be busy). */
  static final Duration WAIT = Duration.ofSeconds(10);

  /** The magic number that opens Troupe's handshake and its acknowledgement. */
  static final int MAGIC = 0x54525550;

  /** The protocol version this build speaks (see {@code Wire}). */
  static final int VERSION = 3;

  private Nodes() {}

  /** Looks {@code path} (e.g. {@code /user/echo}) up on {@code target} from {@code from}. */
  static ActorRef lookup(ActorSystem from, ActorSystem target, String path) {
    return from.actorSelection(target.address() + path).resolveOne(WAIT).toCompletableFuture().join();
  }

  /** A handshake frame (ordinary lane, from {@code troupe://raw@127.0.0.1:1}), written by hand from the protocol's description. */
  static byte[] handshake(int magic, int version, String target) throws IOException {
    return handshake(magic, version, 1, "troupe://raw@127.0.0.1:1", 42, target);
  }

  /** A handshake frame on the ordinary lane from {@code origin} (uid 42), written by hand from the protocol's description. */
  static byte[] handshake(int magic, int version, String origin, String target) throws IOException {
    return handshake(magic, version, 1, origin, 42, target);
  }

  /** A handshake frame on {@code lane} (0 control, 1 ordinary) claiming {@code origin} and {@code uid}. */
  static byte[] handshake(int magic, int version, int lane, String origin, long uid, String target) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(body);
    out.writeInt(magic);
    out.writeByte(version);
    out.writeByte(lane);
    writeString(out, origin);
    out.writeLong(uid);
    writeString(out, target);
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    DataOutputStream f = new DataOutputStream(frame);
    f.writeInt(body.size());
    body.writeTo(f);
    return frame.toByteArray();
  }

  /** Reads a handshake acknowledgement, checking its frame length, magic and version. */
  static void readAck(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    assertEquals(13, in.readInt(), "length of the handshake acknowledgement");
    assertEquals(MAGIC, in.readInt(), "magic of the acknowledgement");
    assertEquals(VERSION, in.readByte(), "protocol version of the acknowledgement");
    in.readLong(); // the node's uid
  }

  /** A refused handshake as the refusal frame says it. */
  record Refusal(boolean isFinal, String reason) {}

  /** Reads a refusal of a handshake, checking its frame length, magic ("TRUR") and version. */
  static Refusal readRefusal(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    int length = in.readInt();
    assertEquals(0x54525552, in.readInt(), "magic of a refusal");
    assertEquals(VERSION, in.readByte(), "protocol version of the refusal");
    int isFinal = in.readByte();
    int n = 0;
    for (int shift = 0; ; shift += 7) { // the reason's varint byte length
      int b = in.readUnsignedByte();
      n |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
    }
    byte[] utf8 = new byte[n];
    in.readFully(utf8);
    assertEquals(length, 4 + 1 + 1 + (n < 128 ? 1 : 2) + n, "length of the refusal");
    assertTrue(isFinal == 0 || isFinal == 1, "final flag " + isFinal);
    return new Refusal(isFinal == 1, new String(utf8, StandardCharsets.UTF_8));
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    assertTrue(utf8.length < 128, "a one-byte varint length");
    out.writeByte(utf8.length);
    out.write(utf8);
  }
}
