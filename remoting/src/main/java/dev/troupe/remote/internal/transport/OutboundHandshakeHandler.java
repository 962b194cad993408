package dev.troupe.remote.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The handshake of an outbound connection: writes this node's handshake ({@link Wire}) once the
 * connection is up (with TLS, the {@code SslHandler} holds it until the TLS handshake completed),
 * then reads the peer's answer. An acknowledgement tells the {@link OutboundListener} the peer's
 * uid, fires {@link HandshakeDeadline.HandshakeDone} from the pipeline's head (the deadline
 * removes itself: an idle link is fine once established) and removes this handler; a refusal
 * ({@link Wire#decodeRefusal}) ends the connection with the peer's reason, telling the listener
 * first when it is final. Either failure goes on as a {@link ConnectionFailure} to the {@link
 * OutboundConnectionHandler}, which closes the connection and reports the reason.
 */
final class OutboundHandshakeHandler extends ChannelInboundHandlerAdapter {
  private final Wire.Handshake handshake;
  private final OutboundListener listener;
  private boolean failed;

  OutboundHandshakeHandler(Wire.Handshake handshake, OutboundListener listener) {
    this.handshake = handshake;
    this.listener = listener;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    ctx.writeAndFlush(Wire.encodeHandshake(ctx.alloc(), handshake));
    ctx.fireChannelActive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    try {
      if (failed) {
        return; // closing
      }
      Wire.Refusal refusal = Wire.decodeRefusal(frame);
      if (refusal != null) {
        failed = true;
        if (refusal.isFinal()) {
          listener.refused(ctx.channel());
        }
        ctx.fireExceptionCaught(new ConnectionFailure(
            handshake.target() + " (" + ctx.channel().remoteAddress() + ") refused the handshake: " + refusal.reason()));
        return;
      }
      long peerUid = Wire.decodeAck(frame);
      ctx.pipeline().fireUserEventTriggered(new HandshakeDeadline.HandshakeDone(null, null));
      ctx.pipeline().remove(this);
      listener.handshakeDone(ctx.channel(), peerUid);
    } catch (Wire.ProtocolException e) {
      failed = true;
      ctx.fireExceptionCaught(new ConnectionFailure("protocol error from " + ctx.channel().remoteAddress() + ": " + e.getMessage()));
    } finally {
      frame.release();
    }
  }

  /** Why an outbound connection ends, as its lane logs it and gives it to what waited for it. */
  static final class ConnectionFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ConnectionFailure(String reason) {
      super(reason, null, false, false);
    }
  }
}
