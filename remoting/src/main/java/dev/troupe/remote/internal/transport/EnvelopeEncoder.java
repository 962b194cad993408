package dev.troupe.remote.internal.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

/**
 * Turns each {@link OutboundEnvelope} written to an outbound connection into the body of one
 * envelope frame ({@link Wire#encodeEnvelope}), with the connection's {@link OutboundTable}; the
 * length prefix is added after it by Netty's {@code LengthFieldPrepender}. A frame above {@code
 * maximum-frame-size} is dropped (a {@code Dropped} event) without adding to the table. A {@link
 * SequencedEnvelope} is the same envelope behind its control prefix and sequence number. A {@link
 * ControlFrame} becomes its two bytes; other writes (the handshake) pass through.
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
    if (msg instanceof ControlFrame c) {
      ctx.write(Wire.encodeControl(ctx.alloc(), c.kind()), promise);
    } else if (msg instanceof OutboundEnvelope e) {
      encode(ctx, e, -1, promise);
    } else if (msg instanceof SequencedEnvelope s) {
      encode(ctx, s.envelope(), s.seq(), promise);
    } else {
      ctx.write(msg, promise);
    }
  }

  /** @param seq the system message's sequence number, or -1 for a user message */
  private void encode(ChannelHandlerContext ctx, OutboundEnvelope e, long seq, ChannelPromise promise) {
    try {
      ctx.write(Wire.encodeEnvelope(ctx.alloc(), table, e, seq, maximumFrameSize), promise);
    } catch (Wire.FrameTooLarge tooLarge) {
      String why = tooLarge.getMessage();
      drops.dropped(e, limitKey.equals("maximum-frame-size") ? why : why.replace("maximum-frame-size", limitKey));
      promise.trySuccess();
    }
  }
}
