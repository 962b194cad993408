package dev.troupe.remote.internal.transport;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.runtime.spi.TraceCarrier;
import dev.troupe.serialization.Serialized;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * The wire protocol of the TCP transport, version {@value #VERSION}. Every frame is a 4-byte
 * big-endian length followed by that many bytes (written with the frame into one buffer by the
 * {@link EnvelopeEncoder} on an outbound connection, by Netty's {@code LengthFieldPrepender} on an
 * accepted one; read by Netty's {@code LengthFieldBasedFrameDecoder}); a length above {@code troupe.remote.maximum-frame-size} (or
 * negative) closes the connection before anything is allocated for it.
 *
 * <p>A connection carries one direction and one lane. The connecting side's first frame is the
 * <b>handshake</b>:
 *
 * <pre>
 *   int32 magic 0x54525550 ("TRUP") | int8 version | int8 lane (0 control, 1 ordinary, 2 large-message)
 *   | string origin address | int64 origin uid | string target address
 * </pre>
 *
 * The accepting side checks magic, version, lane and that the target is its own address (system
 * name, host and port), then answers with the <b>acknowledgement</b> {@code int32 magic | int8
 * version | int64 uid}. A handshake that it decoded but refuses (another target address, an origin
 * that is this node, no room for another association, an incarnation that is over, a certificate
 * that does not name the origin's host) is answered with a <b>refusal</b> {@code int32 }{@value
 * #REFUSAL_MAGIC}{@code  ("TRUR") | int8 version | int8 final | string reason} (the reason cut to
 * {@value #REFUSAL_MAX_CHARS} characters), written once, before it logs and closes. {@code final}
 * is 1 when the same handshake would be refused again (another target address, or this node's own
 * as origin): the connecting side then fails what waits for that connection with the reason at
 * once, and connects again only after a backoff; 0 when it may be accepted
 * later, and the connecting side backs off and retries as after any failed attempt, giving the
 * peer's reason when it gives up. Bytes that are not a
 * handshake of this version are not answered. (The refusal came within version 2: a node without
 * it reads it as a handshake acknowledgement with the wrong magic, a protocol error that closes
 * the connection, which the refusing side closes anyway; the only difference it sees is the line
 * it logs.) On any other mismatch the accepting side logs and closes. (Later it
 * sends only acknowledgements of system messages and answers to heartbeats, both on the control
 * lane.) After the
 * acknowledgement every frame from the connecting side is an <b>envelope</b>:
 *
 * <pre>
 *   ref recipient path | ref sender path (0 = no sender) | zigzag varint serializer id
 *   | ref manifest (0 = "") | payload (the rest of the frame)
 * </pre>
 *
 * An envelope always names its recipient, so a frame whose first byte is {@code 0} is instead a
 * <b>control frame</b> of the transport itself, sent on the control lane: {@code int8 0 | int8
 * kind}, where kind is {@value #HEARTBEAT} (a heartbeat, sent every {@code heartbeat-interval} to a
 * node with watched actors), {@value #HEARTBEAT_RESPONSE} (its answer) or {@value #LEAVING} (the
 * sending node terminates: its actors are gone). Control frames do not touch the string table. A
 * heartbeat is answered on the connection it came in on, from the accepting side (at most one
 * answer per batch of reads, and none while the connection's outbound buffer is full): a node
 * never connects anywhere because a peer's frame named an address. (Version 1 answered on the
 * answering node's own control lane, dialling whatever origin the heartbeat's connection claimed.)
 *
 * <p>System messages are delivered exactly once and in order (the association's {@code SystemMessageOutbox}): on the
 * control lane each one is an envelope behind a sequence number, {@code int8 0 | int8 }{@value
 * #SYSTEM}{@code  | varlong seq | envelope}, and the accepting side answers on the same connection
 * with cumulative acknowledgements {@code int8 0 | int8 }{@value #SYSTEM_ACK}{@code  | varlong seq}
 * (every message up to {@code seq} of the sender's current incarnation is delivered). Sequence
 * numbers start at 1 for each pair of incarnations. The control lane carries no other envelopes.
 *
 * <p>A user message sent while a trace was current (with a tracing module installed: {@code
 * dev.troupe.runtime.spi.TraceCarrier}) carries the W3C trace context in front of its envelope, on
 * the ordinary and large-message lanes: {@code int8 0 | int8 }{@value #TRACED}{@code  | varint n |
 * n bytes of context | envelope}, the context being US-ASCII text, the {@code traceparent} value
 * and, if there is one, a line feed and the {@code tracestate} value, at most {@value
 * #TRACE_CONTEXT_MAX_BYTES} bytes. An untraced message's frame is the envelope alone, as before:
 * not one byte more. The transport reads the field as an opaque string; the receiving node's
 * tracing module interprets it, and one that is malformed (bad hex, a wrong length, garbage) is
 * ignored there: the message is delivered untraced, and a rate-limited warning is logged. A
 * length above {@value #TRACE_CONTEXT_MAX_BYTES} (which no Troupe node sends) or beyond the frame
 * breaks the protocol, like any field that does not fit. A node without tracing installed ignores
 * the field.
 *
 * <p>Strings are a varint byte length and UTF-8. A {@code ref} names a string through the
 * connection's string table ({@link OutboundTable}, {@link InboundTable}), a varint code:
 *
 * <ul>
 *   <li>{@code 0}: none;
 *   <li>{@code 1}: a string follows and becomes the table's next entry;
 *   <li>{@code 2}: a string follows and is not remembered;
 *   <li>{@code 3}: a varint slot and a string follow, and the string replaces the table's entry in
 *       that slot (the old one is forgotten from here on);
 *   <li>{@code n >= 4}: the entry in slot {@code n - 4}.
 * </ul>
 *
 * <p>Both sides build the table anew on each connection, in the order of the frames (TCP keeps it)
 * and, within an envelope, of its fields, so paths and manifests cross in full once and as one or
 * two bytes afterwards. A table holds at most {@value #TABLE_MAX_ENTRIES} entries of at most
 * {@value #TABLE_MAX_BYTES} UTF-8 bytes in all. Every decision is the sender's: it appends while
 * there is room, then replaces an entry it chooses (code 3), so that a connection that lives for
 * ever, with a new temporary reply path on every ask, still sends its hot paths as ids. The sender
 * evicts by a clock (second chance): an entry used since the hand last passed it survives one more
 * round; no entry that the envelope being written names is evicted, and a string of more than
 * {@value #TABLE_MAX_ENTRY_BYTES} bytes, or one for which no entry makes room, crosses unremembered
 * (code 2). The receiver only checks that the table stays within its limits and that a slot named
 * exists, else the connection breaks the protocol. A field's string is taken when the field is read,
 * so a later field of the same envelope that replaces its slot cannot change it.
 *
 * <p>Version 2 added code 3 (version 1 never reused a slot: once full, every new string crossed
 * unremembered, and its receiver could confuse two such strings of one envelope). Version 3 added
 * the trace context ({@value #TRACED}); a version-2 node would take it for an unknown control frame
 * and close the connection, which is why the version changed. Nodes of different versions do not
 * talk at all: the accepting side refuses the other version's handshake without an answer (logged
 * at both ends), and the connecting side's messages to that node are dropped ({@code Dropped}, once
 * it gives up reconnecting), so a cluster is upgraded from version 2 to 3 all at once, not node by
 * node.
 */
public final class Wire {
  static final int MAGIC = 0x54525550;
  static final int VERSION = 3;

  public static final int REF_NONE = 0;
  public static final int REF_NEW = 1;
  static final int REF_LITERAL = 2;
  static final int REF_REPLACE = 3;
  static final int REF_FIRST_ENTRY = 4;

  /** Opens a refusal of a handshake instead of the acknowledgement: "TRUR". */
  static final int REFUSAL_MAGIC = 0x54525552;
  /** Characters of a refusal's reason at most (longer ones are cut). */
  static final int REFUSAL_MAX_CHARS = 300;
  /** Bytes of a refusal frame at most (after its length), which bounds what an outbound connection reads. */
  static final int REFUSAL_MAX_BYTES = 4 + 1 + 1 + 2 + REFUSAL_MAX_CHARS * 3;

  /** Control frame kinds. */
  public static final int HEARTBEAT = 1;
  static final int HEARTBEAT_RESPONSE = 2;
  public static final int LEAVING = 3;
  /** A control-lane frame kind: a sequenced system message follows. */
  public static final int SYSTEM = 4;
  /** A control-lane frame kind, from the accepting side: system messages delivered up to a number. */
  static final int SYSTEM_ACK = 5;
  /** A frame kind of the ordinary and large-message lanes: a trace context, then a user message's envelope. */
  static final int TRACED = 6;

  /** Bytes of a trace context at most (the runtime's {@code TraceCarrier.MAX_LENGTH}). */
  static final int TRACE_CONTEXT_MAX_BYTES = TraceCarrier.MAX_LENGTH;

  /** Entries a connection's string table holds at most. */
  static final int TABLE_MAX_ENTRIES = 4096;
  /** UTF-8 bytes of all entries of a connection's string table at most. */
  static final int TABLE_MAX_BYTES = 1 << 20;
  /** UTF-8 bytes of a string that the sender remembers at most: longer ones always cross in full. */
  static final int TABLE_MAX_ENTRY_BYTES = 16 * 1024;

  private Wire() {}

  /** A frame that breaks the protocol: its connection is closed. */
  public static final class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
      super(message, null, false, false);
    }
  }

  /** The first frame of a connection. */
  public record Handshake(Lane lane, Address origin, long originUid, Address target) {}

  public static ByteBuf encodeHandshake(ByteBufAllocator alloc, Handshake h) {
    ByteBuf b = alloc.buffer(64);
    b.writeInt(MAGIC);
    b.writeByte(VERSION);
    b.writeByte(h.lane().id);
    writeString(b, h.origin().toString());
    b.writeLong(h.originUid());
    writeString(b, h.target().toString());
    return b;
  }

  /**
   * @param b a whole frame
   * @return the handshake in it
   * @throws ProtocolException naming what is wrong, for the log
   */
  static Handshake decodeHandshake(ByteBuf b) {
    checkMagicAndVersion(b, "handshake");
    if (!b.isReadable()) {
      throw new ProtocolException("truncated handshake");
    }
    int laneId = b.readByte();
    Lane lane = Lane.byId(laneId);
    if (lane == null) {
      throw new ProtocolException("unknown lane " + laneId + " in handshake");
    }
    Address origin = readAddress(b, "origin");
    if (b.readableBytes() < 8) {
      throw new ProtocolException("truncated handshake");
    }
    long uid = b.readLong();
    Address target = readAddress(b, "target");
    if (b.isReadable()) {
      throw new ProtocolException(b.readableBytes() + " bytes after the handshake");
    }
    if (origin.host().isEmpty() || origin.port().isEmpty()) {
      throw new ProtocolException("origin address " + origin + " has no host and port");
    }
    return new Handshake(lane, origin, uid, target);
  }

  static ByteBuf encodeAck(ByteBufAllocator alloc, long uid) {
    ByteBuf b = alloc.buffer(13);
    b.writeInt(MAGIC);
    b.writeByte(VERSION);
    b.writeLong(uid);
    return b;
  }

  /**
   * @param b a whole frame
   * @return the uid of the accepting system
   */
  public static long decodeAck(ByteBuf b) {
    checkMagicAndVersion(b, "handshake acknowledgement");
    if (b.readableBytes() != 8) {
      throw new ProtocolException("handshake acknowledgement of the wrong length");
    }
    return b.readLong();
  }

  /** A refused handshake, as the connecting side reads it. */
  public record Refusal(boolean isFinal, String reason) {}

  /**
   * @param isFinal whether the same handshake would be refused again
   * @param reason why; cut to {@value #REFUSAL_MAX_CHARS} characters
   * @return a refusal of a handshake
   */
  static ByteBuf encodeRefusal(ByteBufAllocator alloc, boolean isFinal, String reason) {
    String r = reason.length() > REFUSAL_MAX_CHARS ? reason.substring(0, REFUSAL_MAX_CHARS - 3) + "..." : reason;
    ByteBuf b = alloc.buffer(8 + r.length() * 3);
    b.writeInt(REFUSAL_MAGIC);
    b.writeByte(VERSION);
    b.writeByte(isFinal ? 1 : 0);
    writeString(b, r);
    return b;
  }

  /**
   * @param b a whole frame that the accepting side sent in answer to a handshake
   * @return the refusal, its reason at most {@value #REFUSAL_MAX_CHARS} characters with control
   *     characters replaced; or null if {@code b} is not a refusal
   * @throws ProtocolException if it is a refusal that is malformed
   */
  public static Refusal decodeRefusal(ByteBuf b) {
    if (b.readableBytes() < 4 || b.getInt(b.readerIndex()) != REFUSAL_MAGIC) {
      return null;
    }
    b.skipBytes(4);
    if (b.readableBytes() < 2 || b.readByte() != VERSION) {
      throw new ProtocolException("refusal of another protocol version");
    }
    int isFinal = b.readByte();
    String reason = readString(b);
    if (b.isReadable() || (isFinal & ~1) != 0 || reason.length() > REFUSAL_MAX_CHARS) {
      throw new ProtocolException("malformed refusal");
    }
    StringBuilder clean = new StringBuilder(reason.length());
    reason.codePoints().forEach(c -> clean.appendCodePoint(Character.isISOControl(c) ? '?' : c));
    return new Refusal(isFinal == 1, clean.toString());
  }

  /** @return the body of the control frame of {@code kind} */
  public static ByteBuf encodeControl(ByteBufAllocator alloc, int kind) {
    ByteBuf b = alloc.ioBuffer(2);
    b.writeByte(REF_NONE);
    b.writeByte(kind);
    return b;
  }

  /** @return whether the frame {@code b} (after the handshake) is a control frame, not an envelope */
  static boolean isControl(ByteBuf b) {
    return b.isReadable() && b.getByte(b.readerIndex()) == REF_NONE;
  }

  /**
   * @param b a whole control frame
   * @return its kind
   * @throws ProtocolException if it is not one this node knows
   */
  static int decodeControl(ByteBuf b) {
    if (b.readableBytes() >= 2) {
      int k = b.getByte(b.readerIndex() + 1);
      if (k == SYSTEM || k == TRACED) {
        b.skipBytes(2);
        return k; // the caller reads the sequence number or the trace context, then the envelope
      }
    }
    if (b.readableBytes() != 2) {
      throw new ProtocolException("control frame of " + b.readableBytes() + " bytes");
    }
    b.skipBytes(1);
    int kind = b.readByte();
    if (kind != HEARTBEAT && kind != HEARTBEAT_RESPONSE && kind != LEAVING) {
      throw new ProtocolException("unknown control frame kind " + kind);
    }
    return kind;
  }

  /** @return an acknowledgement of every system message up to {@code seq} */
  public static ByteBuf encodeSystemAck(ByteBufAllocator alloc, long seq) {
    ByteBuf b = alloc.ioBuffer(2 + varLongSize(seq));
    b.writeByte(REF_NONE);
    b.writeByte(SYSTEM_ACK);
    writeVarLong(b, seq);
    return b;
  }

  /**
   * @param b a whole frame that the accepting side sent after its handshake acknowledgement
   * @return whether it is the answer to a heartbeat (else it must be an acknowledgement of system
   *     messages)
   */
  static boolean isHeartbeatResponse(ByteBuf b) {
    int at = b.readerIndex();
    return b.readableBytes() == 2 && b.getByte(at) == REF_NONE && b.getByte(at + 1) == HEARTBEAT_RESPONSE;
  }

  /**
   * @param b a whole frame that the accepting side sent after its handshake acknowledgement
   * @return the acknowledged sequence number
   */
  static long decodeSystemAck(ByteBuf b) {
    if (b.readableBytes() < 3 || b.readByte() != REF_NONE || b.readByte() != SYSTEM_ACK) {
      throw new ProtocolException("expected an acknowledgement of system messages");
    }
    long seq = readVarLong(b);
    if (b.isReadable() || seq < 0) {
      throw new ProtocolException("malformed acknowledgement of system messages");
    }
    return seq;
  }

  private static void checkMagicAndVersion(ByteBuf b, String what) {
    if (b.readableBytes() < 5) {
      throw new ProtocolException("not a Troupe " + what + " (" + b.readableBytes() + " bytes)");
    }
    int magic = b.readInt();
    if (magic != MAGIC) {
      throw new ProtocolException(
          "not a Troupe " + what + " (magic 0x" + Integer.toHexString(magic) + ", expected 0x"
              + Integer.toHexString(MAGIC) + ")");
    }
    int version = b.readByte();
    if (version != VERSION) {
      throw new ProtocolException(
          "protocol version " + version + " in " + what + ", this node speaks version " + VERSION);
    }
  }

  private static Address readAddress(ByteBuf b, String what) {
    String text = readString(b);
    try {
      return Address.parse(text);
    } catch (IllegalArgumentException e) {
      throw new ProtocolException("malformed " + what + " address in handshake: " + e.getMessage());
    }
  }

  // ------------------------------------------------------------------ envelopes

  /**
   * The bytes of a system message's frame besides its strings and payload: control prefix and
   * sequence number, and for each of recipient, sender and manifest a ref code, a slot and a
   * length, and the serializer id.
   */
  private static final long SYSTEM_FRAME_OVERHEAD = 2 + 10 + 3 * (1 + 2 + 5) + 5;

  /**
   * The most bytes the frame of a system message can take, whatever the string table holds: its
   * paths and manifest in full (each counted as 3 bytes a char, the most UTF-8 takes). A sequenced
   * message must never be dropped by the encoder (its number would leave a gap), so its sender
   * checks this bound before it numbers the message.
   *
   * @param senderPath the sender's path as sent, or null for none
   */
  public static long systemFrameBound(Serialized payload, String recipientPath, String senderPath) {
    return SYSTEM_FRAME_OVERHEAD + payload.bytes().length + payload.manifest().length() * 3L
        + recipientPath.length() * 3L + (senderPath == null ? 0 : senderPath.length() * 3L);
  }

  /** An envelope's frame would be above {@code maximum-frame-size}: it is not written. */
  static final class FrameTooLarge extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FrameTooLarge(long size, int maximumFrameSize) {
      super("the frame would be " + size + " bytes, above troupe.remote.maximum-frame-size (" + maximumFrameSize + " bytes)", null, false, false);
    }
  }

  /**
   * Writes the body of an envelope's frame (the length prefix comes after it), with the
   * connection's string table. The frame's size is known before anything is written (at most: a
   * new string may take a slot's varint more), so a frame above {@code maximumFrameSize} is not
   * written and adds nothing to the table.
   *
   * @param seq the system message's sequence number, or -1 for a user message
   * @throws FrameTooLarge if the frame would be above {@code maximumFrameSize}
   */
  static ByteBuf encodeEnvelope(ByteBufAllocator alloc, OutboundTable table, OutboundEnvelope e, long seq, int maximumFrameSize) {
    return encodeEnvelope(alloc, table, e, seq, maximumFrameSize, false);
  }

  /**
   * {@link #encodeEnvelope(ByteBufAllocator, OutboundTable, OutboundEnvelope, long, int)}, with
   * the frame's 4-byte length in front of the body when {@code lengthPrefix}: the whole frame in
   * one buffer, as the {@link EnvelopeEncoder} writes it.
   */
  static ByteBuf encodeEnvelope(
      ByteBufAllocator alloc, OutboundTable table, OutboundEnvelope e, long seq, int maximumFrameSize, boolean lengthPrefix) {
    return encodeEnvelope(alloc, null, 0, table, e, seq, maximumFrameSize, lengthPrefix);
  }

  /**
   * {@link #encodeEnvelope(ByteBufAllocator, OutboundTable, OutboundEnvelope, long, int,
   * boolean)}, appended to {@code into} when the frame fits in what it has room for without
   * growing; else into a new buffer with room for at least {@code minCapacity} bytes (the frame
   * whole when it is larger), which later frames may be appended to. A frame that fails half-way
   * leaves {@code into} as it was.
   *
   * @param into the buffer to append to, or null
   * @return the buffer the frame is in: {@code into}, or the new one
   */
  static ByteBuf encodeEnvelope(
      ByteBufAllocator alloc,
      ByteBuf into,
      int minCapacity,
      OutboundTable table,
      OutboundEnvelope e,
      long seq,
      int maximumFrameSize,
      boolean lengthPrefix) {
    ActorRef recipient = e.recipient();
    ActorRef sender = e.sender();
    Serialized p = e.payload();
    String manifest = p.manifest();
    table.startEnvelope();
    int recipientId = table.idOf(recipient);
    String recipientText = recipientId < 0 ? e.recipientPath() : null;
    int senderId = sender == null ? -1 : table.idOf(sender);
    String senderText = sender != null && senderId < 0 ? sender.path().toSerializationFormat() : null;
    int manifestId = manifest.isEmpty() ? -1 : table.idOf(manifest);
    int serializerId = zigZag(p.serializerId());
    String trace = e.traceContext(); // null unless the message was sent under a trace
    if (trace != null && (seq >= 0 || trace.length() > TRACE_CONTEXT_MAX_BYTES)) {
      trace = null; // system messages are never traced; a context too long to read is not sent
    }
    long size =
        (seq < 0 ? 0 : 2 + varLongSize(seq))
            + (trace == null ? 0 : 2 + varIntSize(trace.length()) + trace.length())
            + (long) OutboundTable.size(recipientId, recipientText)
            + (sender == null ? 1 : OutboundTable.size(senderId, senderText))
            + varIntSize(serializerId)
            + (manifest.isEmpty() ? 1 : OutboundTable.size(manifestId, manifest))
            + p.bytes().length;
    if (size > maximumFrameSize) {
      throw new FrameTooLarge(size, maximumFrameSize);
    }
    int frameBytes = (int) size + (lengthPrefix ? 4 : 0);
    boolean append = into != null && into.writableBytes() >= frameBytes;
    ByteBuf out = append ? into : alloc.ioBuffer(Math.max(frameBytes, minCapacity));
    int start = out.writerIndex();
    try {
      if (lengthPrefix) {
        out.writeInt(0); // the body's length, set once it is written
      }
      if (seq >= 0) {
        out.writeByte(REF_NONE);
        out.writeByte(SYSTEM);
        writeVarLong(out, seq);
      } else if (trace != null) {
        out.writeByte(REF_NONE);
        out.writeByte(TRACED);
        writeVarInt(out, trace.length());
        ByteBufUtil.writeAscii(out, trace); // one byte a char: a char beyond ASCII becomes '?'
      }
      table.write(out, recipient, recipientText);
      if (sender == null) {
        out.writeByte(REF_NONE);
      } else {
        table.write(out, sender, senderText);
      }
      writeVarInt(out, serializerId);
      if (manifest.isEmpty()) {
        out.writeByte(REF_NONE);
      } else {
        table.write(out, manifest, manifest);
      }
      out.writeBytes(p.bytes());
      if (lengthPrefix) {
        out.setInt(start, out.writerIndex() - start - 4);
      }
    } catch (RuntimeException ex) {
      if (append) {
        out.writerIndex(start);
      } else {
        out.release();
      }
      throw ex;
    }
    return out;
  }

  /**
   * Reads an envelope's fields (after a system message's prefix and number) into {@code into},
   * through the connection's string table; the payload is the rest of the frame.
   *
   * @throws ProtocolException if the envelope breaks the protocol
   */
  static void decodeEnvelope(ByteBuf b, InboundTable table, InboundEnvelope into) {
    InboundTable.Entry recipient = table.read(b);
    if (recipient == null) {
      throw new ProtocolException("an envelope without recipient");
    }
    InboundTable.Entry sender = table.read(b);
    int serializerId = unZigZag(readVarInt(b));
    InboundTable.Entry manifest = table.read(b);
    into.set(recipient, sender, serializerId, manifest == null ? "" : manifest.text, ByteBufUtil.getBytes(b));
  }

  /**
   * Reads a traced frame's context (after its prefix), which is taken as it is: the tracing module
   * judges it.
   *
   * @return the context, at most {@value #TRACE_CONTEXT_MAX_BYTES} characters
   * @throws ProtocolException if its length is above that or beyond the frame
   */
  static String decodeTraceContext(ByteBuf b) {
    int n = readVarInt(b);
    if (n < 0 || n > TRACE_CONTEXT_MAX_BYTES) {
      throw new ProtocolException("a trace context of " + (n & 0xFFFFFFFFL) + " bytes, above " + TRACE_CONTEXT_MAX_BYTES);
    }
    if (n > b.readableBytes()) {
      throw new ProtocolException("a trace context of " + n + " bytes, only " + b.readableBytes() + " left");
    }
    String s = b.toString(b.readerIndex(), n, StandardCharsets.US_ASCII);
    b.skipBytes(n);
    return s;
  }

  // ------------------------------------------------------------------ primitives

  public static void writeVarInt(ByteBuf b, int v) {
    while ((v & ~0x7F) != 0) {
      b.writeByte((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    b.writeByte(v);
  }

  static int varIntSize(int v) {
    int n = 1;
    while ((v & ~0x7F) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  /**
   * @param b the input
   * @return an unsigned varint of at most five bytes, as an int (negative when above {@code
   *     Integer.MAX_VALUE})
   */
  static int readVarInt(ByteBuf b) {
    int v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (!b.isReadable()) {
        throw new ProtocolException("truncated varint");
      }
      int x = b.readByte();
      v |= (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
    }
    throw new ProtocolException("varint longer than five bytes");
  }

  public static void writeVarLong(ByteBuf b, long v) {
    while ((v & ~0x7FL) != 0) {
      b.writeByte((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    b.writeByte((int) v);
  }

  static int varLongSize(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  /** @return an unsigned varint of at most ten bytes */
  static long readVarLong(ByteBuf b) {
    long v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (!b.isReadable()) {
        throw new ProtocolException("truncated varint");
      }
      int x = b.readByte();
      v |= (long) (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
    }
    throw new ProtocolException("varint longer than ten bytes");
  }

  public static int zigZag(int v) {
    return (v << 1) ^ (v >> 31);
  }

  static int unZigZag(int v) {
    return (v >>> 1) ^ -(v & 1);
  }

  public static void writeString(ByteBuf b, String s) {
    writeVarInt(b, ByteBufUtil.utf8Bytes(s));
    ByteBufUtil.writeUtf8(b, s);
  }

  static String readString(ByteBuf b) {
    int n = readVarInt(b);
    if (n < 0 || n > b.readableBytes()) {
      throw new ProtocolException("string of " + (n & 0xFFFFFFFFL) + " bytes, only " + b.readableBytes() + " left");
    }
    String s = b.toString(b.readerIndex(), n, StandardCharsets.UTF_8);
    b.skipBytes(n);
    return s;
  }
}
