package dev.troupe.remote.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;

/**
 * The last handler of an outbound connection: after the {@link OutboundHandshakeHandler} is done,
 * passes on the acknowledgements of system messages and the answers to heartbeats (the only other
 * frames a peer sends on a connection, and only on the control lane), and tells its {@link
 * OutboundListener} of writability changes and of the connection's end, with the reason when it
 * failed: a refused handshake or a protocol error ({@link OutboundHandshakeHandler.ConnectionFailure}),
 * a failed TLS handshake (which the lane logs before it backs off as after any failed connect), no
 * acknowledgement in time ({@link HandshakeDeadline.Expired}).
 */
final class OutboundConnectionHandler extends ChannelInboundHandlerAdapter {
  private final OutboundListener listener;
  private final Lane lane;
  private final org.slf4j.Logger log;
  private String failure;

  OutboundConnectionHandler(OutboundListener listener, Lane lane, org.slf4j.Logger log) {
    this.listener = listener;
    this.lane = lane;
    this.log = log;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    try {
      if (failure != null) {
        return; // closing
      }
      if (lane != Lane.CONTROL) {
        throw new Wire.ProtocolException("a frame after the handshake acknowledgement on the " + lane + " lane");
      }
      if (Wire.isHeartbeatResponse(frame)) {
        listener.heartbeatResponse(ctx.channel());
      } else {
        listener.systemAck(ctx.channel(), Wire.decodeSystemAck(frame));
      }
    } catch (Wire.ProtocolException e) {
      failure = "protocol error from " + ctx.channel().remoteAddress() + ": " + e.getMessage();
      ctx.close();
    } finally {
      frame.release();
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    listener.writable(ctx.channel());
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (failure == null) {
      failure = cause instanceof OutboundHandshakeHandler.ConnectionFailure
          ? cause.getMessage()
          : cause instanceof HandshakeDeadline.Expired
              ? "no handshake acknowledgement in time: " + cause.getMessage()
              : FailureReasons.describe(cause);
    }
    ctx.close();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof SslHandshakeCompletionEvent done) {
      if (done.isSuccess()) {
        NettyTransport.logTlsSession(log, ctx, "to");
      } else {
        if (failure == null) {
          failure = FailureReasons.describeHandshakeFailure(done.cause());
        }
        ctx.close();
      }
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    listener.closed(ctx.channel(), failure);
  }
}
