package dev.troupe.remote.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

/**
 * Writes the frames of an outbound connection, each whole in one buffer with its 4-byte length in
 * front ({@link Wire}): each {@link OutboundEnvelope} as an envelope frame ({@link
 * Wire#encodeEnvelope}), with the connection's {@link OutboundTable}; a {@link SequencedEnvelope}
 * as the same envelope behind its control prefix and sequence number; a {@link ControlFrame} as its
 * two bytes; a {@link ByteBuf} (the handshake) as it is. A frame above {@code maximum-frame-size} is
 * dropped (a {@code Dropped} event) without adding to the table.
 *
 * <p>One buffer per frame, not a separate one for the length (as Netty's {@code
 * LengthFieldPrepender} writes it): half the entries in the channel's outbound buffer and in the
 * gathering write of every flush, and no 4-byte allocation per message. An outbound connection's
 * pipeline therefore has no other length prepender.
 */
final class EnvelopeEncoder extends ChannelOutboundHandlerAdapter {
  private final OutboundTable table = new OutboundTable();
  private final int maximumFrameSize;
  private final String limitKey;
  private final Drops drops;

  EnvelopeEncoder(int maximumFrameSize, Drops drops) {
    this(maximumFrameSize, "maximum-frame-size", drops);
  }

  /** @param limitKey the key under {@code troupe.remote} that set {@code maximumFrameSize}, for the drop's reason */
  EnvelopeEncoder(int maximumFrameSize, String limitKey, Drops drops) {
    this.maximumFrameSize = maximumFrameSize;
    this.limitKey = limitKey;
    this.drops = drops;
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof OutboundEnvelope e) {
      encode(ctx, e, -1, promise);
    } else if (msg instanceof SequencedEnvelope s) {
      encode(ctx, s.envelope(), s.seq(), promise);
    } else if (msg instanceof ControlFrame c) {
      ByteBuf b = ctx.alloc().ioBuffer(6);
      b.writeInt(2);
      b.writeByte(Wire.REF_NONE);
      b.writeByte(c.kind());
      ctx.write(b, promise);
    } else if (msg instanceof ByteBuf body) {
      ByteBuf b;
      try {
        b = ctx.alloc().ioBuffer(4 + body.readableBytes());
        b.writeInt(body.readableBytes());
        b.writeBytes(body);
      } finally {
        body.release();
      }
      ctx.write(b, promise);
    } else {
      ctx.write(msg, promise);
    }
  }

  /** @param seq the system message's sequence number, or -1 for a user message */
  private void encode(ChannelHandlerContext ctx, OutboundEnvelope e, long seq, ChannelPromise promise) {
    ByteBuf frame;
    try {
      frame = Wire.encodeEnvelope(ctx.alloc(), table, e, seq, maximumFrameSize, true);
    } catch (Wire.FrameTooLarge tooLarge) {
      String why = tooLarge.getMessage();
      drops.dropped(e, limitKey.equals("maximum-frame-size") ? why : why.replace("maximum-frame-size", limitKey));
      promise.trySuccess();
      return;
    }
    ctx.write(frame, promise);
  }
}
