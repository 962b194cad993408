package dev.troupe.remote.soak;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Troupe's wire protocol written by hand from its description in {@code Wire}'s javadoc (version
 * 2), for the soak harness's adversaries: a frame is a 4-byte big-endian length and a body; the
 * connecting side's first body is the handshake, then envelopes ({@code ref recipient | ref sender |
 * zigzag varint serializer id | ref manifest | payload}) or control frames ({@code 0 | kind}). A
 * {@code ref} is a varint: 0 none, 1 a new table entry (a string follows), 2 a literal (a string
 * follows), 3 a string that replaces a table entry, {@code n >= 4} table entry {@code n - 4}.
 *
 * <p>Deliberately independent of the transport's own encoder: the harness must be able to write
 * what that encoder never would.
 */
final class RawFrames {
  static final int MAGIC = 0x54525550;
  static final int VERSION = 3;
  static final int LANE_CONTROL = 0;
  static final int LANE_ORDINARY = 1;

  static final int REF_NONE = 0;
  static final int REF_NEW = 1;
  static final int REF_LITERAL = 2;
  static final int REF_FIRST_ENTRY = 4;

  static final int HEARTBEAT = 1;
  static final int LEAVING = 3;
  /** The control code of a user message that carries a trace context in front of its envelope. */
  static final int TRACED = 6;
  /** The most bytes of trace context a node reads ({@code Wire.TRACE_CONTEXT_MAX_BYTES}). */
  static final int TRACE_CONTEXT_MAX_BYTES = 512;

  /** The serializer of strings. */
  static final int STRING_SERIALIZER = 2;

  /** The serializer of Troupe's built-in messages, and its manifest of {@code Identify}. */
  static final int MESSAGES_SERIALIZER = 5;

  static final String IDENTIFY_MANIFEST = "I";

  private RawFrames() {}

  /** A growable body, with the protocol's primitives. */
  static final class Body {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

    Body writeByte(int b) {
      out.write(b);
      return this;
    }

    Body writeInt(int v) {
      for (int shift = 24; shift >= 0; shift -= 8) {
        out.write(v >>> shift);
      }
      return this;
    }

    Body writeLong(long v) {
      for (int shift = 56; shift >= 0; shift -= 8) {
        out.write((int) (v >>> shift));
      }
      return this;
    }

    /** An unsigned varint of the int's 32 bits (a negative int takes five bytes). */
    Body writeVarInt(int v) {
      while ((v & ~0x7F) != 0) {
        out.write((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      out.write(v);
      return this;
    }

    Body writeString(String s) {
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      writeVarInt(utf8.length);
      out.write(utf8, 0, utf8.length);
      return this;
    }

    Body writeBytes(byte[] b) {
      out.write(b, 0, b.length);
      return this;
    }

    /** A ref that carries its string: {@code kind} is {@link #REF_NEW} or {@link #REF_LITERAL}. */
    Body writeRef(int kind, String s) {
      writeVarInt(kind);
      return writeString(s);
    }

    int size() {
      return out.size();
    }

    byte[] bytes() {
      return out.toByteArray();
    }

    /** @return the body behind its 4-byte length */
    byte[] frame() {
      byte[] body = out.toByteArray();
      byte[] frame = new byte[body.length + 4];
      frame[0] = (byte) (body.length >>> 24);
      frame[1] = (byte) (body.length >>> 16);
      frame[2] = (byte) (body.length >>> 8);
      frame[3] = (byte) body.length;
      System.arraycopy(body, 0, frame, 4, body.length);
      return frame;
    }
  }

  /** @return a handshake frame on {@code lane} claiming {@code origin} and {@code uid}, for {@code target} */
  static byte[] handshake(int lane, String origin, long uid, String target) {
    return new Body()
        .writeInt(MAGIC)
        .writeByte(VERSION)
        .writeByte(lane)
        .writeString(origin)
        .writeLong(uid)
        .writeString(target)
        .frame();
  }

  /** @return a control frame of {@code kind} (heartbeat, LEAVING) */
  static byte[] control(int kind) {
    return new Body().writeByte(REF_NONE).writeByte(kind).frame();
  }

  /**
   * @return the first user message on a connection, for {@code recipient} (a full path), of no
   *     sender, carrying {@code payload} as the given serializer and manifest; the recipient and
   *     the manifest become the string table's entries 0 and 1
   */
  static byte[] firstEnvelope(String recipient, int serializerId, String manifest, byte[] payload) {
    return new Body()
        .writeRef(REF_NEW, recipient)
        .writeVarInt(REF_NONE)
        .writeVarInt(zigZag(serializerId))
        .writeRef(REF_NEW, manifest)
        .writeBytes(payload)
        .frame();
  }

  /**
   * @param context the trace context's bytes as they go on the wire (any bytes: the caller decides
   *     whether they are valid US-ASCII)
   * @param declared the length the field announces (the context's own for a well-formed field)
   * @param envelope the body of an envelope ({@code ref recipient | ref sender | ...}), or empty
   * @return a traced frame: {@code 0 | 6 | varint declared | context | envelope}
   */
  static byte[] traced(byte[] context, int declared, byte[] envelope) {
    return new Body()
        .writeByte(REF_NONE)
        .writeByte(TRACED)
        .writeVarInt(declared)
        .writeBytes(context)
        .writeBytes(envelope)
        .frame();
  }

  /**
   * @return the body of an envelope of a string for {@code recipient} from {@code sender} (both
   *     full paths, literals: nothing enters the connection's string table)
   */
  static byte[] stringEnvelope(String recipient, String sender, String text) {
    return new Body()
        .writeRef(REF_LITERAL, recipient)
        .writeRef(REF_LITERAL, sender)
        .writeVarInt(zigZag(STRING_SERIALIZER))
        .writeVarInt(REF_NONE)
        .writeBytes(text.getBytes(StandardCharsets.UTF_8))
        .bytes();
  }

  /**
   * The payload of an {@code Identify} whose message id is an {@code Identify} whose message id
   * is ..., with {@code depth} values nested inside the outermost one, the innermost one's id null:
   * each nested value is {@code 1 | varint 5 | string "I" | varint length | its own payload}, and
   * the innermost payload is {@code 0} (no message id).
   *
   * @param depth how many {@code Identify} values are nested in the outermost one
   * @param maxBytes the payload stops growing before it passes this size
   * @return the payload
   */
  static byte[] nestedIdentify(int depth, int maxBytes) {
    // sizes from the inside out (level 0 is Identify(null), one byte), then written from the outside in
    int[] size = new int[depth + 1];
    size[0] = 1;
    int levels = 0;
    while (levels < depth) {
      int next = 4 + new Body().writeVarInt(size[levels]).size() + size[levels];
      if (next > maxBytes) {
        break;
      }
      size[++levels] = next;
    }
    Body b = new Body();
    for (int level = levels; level > 0; level--) {
      b.writeByte(1).writeVarInt(MESSAGES_SERIALIZER).writeString(IDENTIFY_MANIFEST).writeVarInt(size[level - 1]);
    }
    return b.writeByte(0).bytes();
  }

  static int zigZag(int v) {
    return (v << 1) ^ (v >> 31);
  }

  /** @return a connected socket to 127.0.0.1:{@code port}, reads bounded by {@code readTimeoutMs} */
  static Socket connect(int port, int readTimeoutMs) throws IOException {
    Socket s = new Socket();
    try {
      s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
      s.setSoTimeout(readTimeoutMs);
      return s;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  /**
   * Sends a handshake and waits for the acknowledgement.
   *
   * @return whether the node answered with an acknowledgement (false: it refused the handshake,
   *     closed the connection, or sent nothing in the socket's read timeout)
   */
  static boolean handshakeAccepted(Socket s, byte[] handshake) throws IOException {
    OutputStream out = s.getOutputStream();
    out.write(handshake);
    out.flush();
    InputStream in = s.getInputStream();
    DataInputStream data = new DataInputStream(in);
    try {
      int length = data.readInt();
      if (length != 13) { // not an acknowledgement (a refusal is longer, and is followed by the close)
        return false;
      }
      byte[] ack = new byte[length];
      data.readFully(ack);
      return java.nio.ByteBuffer.wrap(ack).getInt() == 0x54525550;
    } catch (IOException closedOrSilent) {
      return false;
    }
  }
}
