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
 *
 * <p>It also counts the connection's traffic into its {@link Traffic.Cell}: each envelope it is
 * given (also one dropped as too large) and the bytes of each frame it writes, length included.
 * Every frame an outbound connection writes passes here, so no handler of its own counts them.
 */
final class EnvelopeEncoder extends ChannelOutboundHandlerAdapter {
  private final OutboundTable table = new OutboundTable();
  private final int maximumFrameSize;
  private final String limitKey;
  private final Drops drops;
  private final Traffic.Cell traffic;

  /** One that counts into a cell of its own, attached to no peer (tests). */
  EnvelopeEncoder(int maximumFrameSize, Drops drops) {
    this(maximumFrameSize, "maximum-frame-size", drops, new Traffic.Cell());
  }

  /**
   * @param limitKey the key under {@code troupe.remote} that set {@code maximumFrameSize}, for the drop's reason
   * @param traffic the connection's counts
   */
  EnvelopeEncoder(int maximumFrameSize, String limitKey, Drops drops, Traffic.Cell traffic) {
    this.maximumFrameSize = maximumFrameSize;
    this.limitKey = limitKey;
    this.drops = drops;
    this.traffic = traffic;
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof OutboundEnvelope e) {
      traffic.messageSent();
      encode(ctx, e, -1, promise);
    } else if (msg instanceof SequencedEnvelope s) {
      traffic.messageSent();
      encode(ctx, s.envelope(), s.seq(), promise);
    } else if (msg instanceof ControlFrame c) {
      ByteBuf b = ctx.alloc().ioBuffer(6);
      b.writeInt(2);
      b.writeByte(Wire.REF_NONE);
      b.writeByte(c.kind());
      traffic.sent(6);
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
      traffic.sent(b.readableBytes());
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
    traffic.sent(frame.readableBytes());
    ctx.write(frame, promise);
  }
}
