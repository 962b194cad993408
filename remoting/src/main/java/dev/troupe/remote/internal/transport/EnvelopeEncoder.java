package dev.troupe.remote.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

/**
 * Writes the frames of an outbound connection, each whole with its 4-byte length in front ({@link
 * Wire}): each {@link OutboundEnvelope} as an envelope frame ({@link Wire#encodeEnvelope}), with
 * the connection's {@link OutboundTable}; a {@link SequencedEnvelope} as the same envelope behind
 * its control prefix and sequence number; a {@link ControlFrame} as its two bytes; a {@link
 * ByteBuf} (the handshake) as it is. A frame above {@code maximum-frame-size} is dropped (a {@code
 * Dropped} event) without adding to the table.
 *
 * <p><b>Frames of one flush share buffers.</b> An envelope written with the channel's void promise
 * (as the outbound lanes write them) is appended to a buffer this handler holds until the next
 * flush, and only then passed on, so that a batch of messages costs a few buffers (of {@value
 * #CHUNK} bytes, or one frame when larger), not one allocated, tracked and queued per message,
 * and the gathering write of the flush has as few entries. Anything else written (a control
 * frame, the handshake, an envelope with a promise of its own) first passes on what is held, so
 * the order on the wire is the order of the writes. What is held when the connection closes was
 * never flushed, and is released like any other unflushed write. The same bytes go on the wire as
 * with a buffer per frame. An outbound connection's pipeline has no other length prepender.
 *
 * <p>It also counts the connection's traffic into its {@link Traffic.Cell}: each envelope it is
 * given (also one dropped as too large) and the bytes of each frame, length included, as it is
 * encoded. Every frame an outbound connection writes passes here, so no handler of its own counts
 * them.
 */
final class EnvelopeEncoder extends ChannelOutboundHandlerAdapter {
  /** The room of a buffer that the frames of one flush are appended to. */
  static final int CHUNK = 8192;

  private final OutboundTable table = new OutboundTable();
  private final int maximumFrameSize;
  private final String limitKey;
  private final Drops drops;
  private final Traffic.Cell traffic;
  /** The frames written since the last flush, not yet passed on; null for none. */
  private ByteBuf pending;

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
      passOn(ctx);
      ByteBuf b = ctx.alloc().ioBuffer(6);
      b.writeInt(2);
      b.writeByte(Wire.REF_NONE);
      b.writeByte(c.kind());
      traffic.sent(6);
      ctx.write(b, promise);
    } else if (msg instanceof ByteBuf body) {
      passOn(ctx);
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
      passOn(ctx);
      ctx.write(msg, promise);
    }
  }

  @Override
  public void flush(ChannelHandlerContext ctx) {
    passOn(ctx);
    ctx.flush();
  }

  @Override
  public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
    release(); // never flushed: dropped like the channel's own unflushed writes
    ctx.close(promise);
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    release();
  }

  /** @param seq the system message's sequence number, or -1 for a user message */
  private void encode(ChannelHandlerContext ctx, OutboundEnvelope e, long seq, ChannelPromise promise) {
    boolean held = promise.isVoid();
    if (!held) {
      passOn(ctx);
    }
    ByteBuf into = held ? pending : null;
    int before = into == null ? 0 : into.writerIndex();
    ByteBuf frame;
    try {
      frame = Wire.encodeEnvelope(ctx.alloc(), into, held ? CHUNK : 0, table, e, seq, maximumFrameSize, true);
    } catch (Wire.FrameTooLarge tooLarge) {
      String why = tooLarge.getMessage();
      drops.dropped(e, limitKey.equals("maximum-frame-size") ? why : why.replace("maximum-frame-size", limitKey));
      promise.trySuccess();
      return;
    }
    if (frame == into) {
      traffic.sent(frame.writerIndex() - before);
      return;
    }
    traffic.sent(frame.readableBytes());
    if (held) {
      passOn(ctx); // full: the new buffer takes the frames that follow
      pending = frame;
    } else {
      ctx.write(frame, promise);
    }
  }

  /** Writes the frames held, if any, to the next handler. */
  private void passOn(ChannelHandlerContext ctx) {
    ByteBuf b = pending;
    if (b != null) {
      pending = null;
      ctx.write(b, ctx.voidPromise());
    }
  }

  private void release() {
    ByteBuf b = pending;
    if (b != null) {
      pending = null;
      b.release();
    }
  }
}
