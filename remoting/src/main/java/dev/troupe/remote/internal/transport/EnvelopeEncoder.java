package dev.troupe.remote.internal.transport;

import dev.troupe.remote.internal.association.RemoteActorRef;
import dev.troupe.remote.internal.association.SystemMessageOutbox;

import dev.troupe.actor.ActorRef;
import dev.troupe.serialization.Serialized;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

/**
 * Turns each {@link OutboundEnvelope} written to an outbound connection into the body of one
 * envelope frame ({@link Wire}), with the connection's {@link OutboundTable}; the length prefix is
 * added after it by Netty's {@code LengthFieldPrepender}. The frame's size is known before anything
 * is written (at most: a new string may take a slot's varint more), so a frame above {@code
 * maximum-frame-size} is dropped (a {@code Dropped} event) without adding to the table. A {@link
 * SequencedEnvelope} system message is the same envelope behind its control prefix and
 * sequence number. A {@link ControlFrame} becomes its two bytes; other writes (the handshake) pass
 * through.
 */
final class EnvelopeEncoder extends ChannelOutboundHandlerAdapter {
  private final OutboundTable table = new OutboundTable();
  private final int maximumFrameSize;
  private final Drops drops;

  EnvelopeEncoder(int maximumFrameSize, Drops drops) {
    this.maximumFrameSize = maximumFrameSize;
    this.drops = drops;
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof ControlFrame c) {
      ctx.write(Wire.encodeControl(ctx.alloc(), c.kind()), promise);
      return;
    }
    if (msg instanceof OutboundEnvelope e) {
      encode(ctx, e, -1, promise);
    } else if (msg instanceof SequencedEnvelope s) {
      encode(ctx, s.envelope(), s.seq(), promise);
    } else {
      ctx.write(msg, promise);
    }
  }

  /** @param seq the system message's sequence number, or -1 for a user message */
  private void encode(ChannelHandlerContext ctx, OutboundEnvelope e, long seq, ChannelPromise promise) {
    RemoteActorRef recipient = e.recipient();
    ActorRef sender = e.sender();
    Serialized p = e.payload();
    String manifest = p.manifest();
    table.startEnvelope();
    int recipientId = table.idOf(recipient);
    String recipientText = recipientId < 0 ? recipient.serializedPath() : null;
    int senderId = sender == null ? -1 : table.idOf(sender);
    String senderText = sender != null && senderId < 0 ? sender.path().toSerializationFormat() : null;
    int manifestId = manifest.isEmpty() ? -1 : table.idOf(manifest);
    int serializerId = Wire.zigZag(p.serializerId());
    long size =
        (seq < 0 ? 0 : 2 + Wire.varLongSize(seq))
            + (long) OutboundTable.size(recipientId, recipientText)
            + (sender == null ? 1 : OutboundTable.size(senderId, senderText))
            + Wire.varIntSize(serializerId)
            + (manifest.isEmpty() ? 1 : OutboundTable.size(manifestId, manifest))
            + p.bytes().length;
    if (size > maximumFrameSize) {
      drops.dropped(
          e,
          "the frame would be " + size + " bytes, above troupe.remote.maximum-frame-size (" + maximumFrameSize + " bytes)");
      promise.trySuccess();
      return;
    }
    ByteBuf out = ctx.alloc().ioBuffer((int) size);
    try {
      if (seq >= 0) {
        out.writeByte(Wire.REF_NONE);
        out.writeByte(Wire.SYSTEM);
        Wire.writeVarLong(out, seq);
      }
      table.write(out, recipient, recipientText);
      if (sender == null) {
        out.writeByte(Wire.REF_NONE);
      } else {
        table.write(out, sender, senderText);
      }
      Wire.writeVarInt(out, serializerId);
      if (manifest.isEmpty()) {
        out.writeByte(Wire.REF_NONE);
      } else {
        table.write(out, manifest, manifest);
      }
      out.writeBytes(p.bytes());
    } catch (RuntimeException ex) {
      out.release();
      throw ex;
    }
    ctx.write(out, promise);
  }
}
