package dev.troupe.remote.internal.transport;

import dev.troupe.remote.internal.association.OutboundLane;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;

/**
 * The last handler of an outbound connection: waits for the peer's handshake acknowledgement, then
 * passes on the acknowledgements of system messages and the answers to heartbeats (the only other
 * frames a peer sends on a connection, and only on the control lane), and tells its {@link OutboundLane} of writability
 * changes and of the connection's end. A failed TLS handshake ends the connection with its reason,
 * which the lane logs before it backs off as after any failed connect. A refusal of the handshake
 * ({@link Wire#decodeRefusal}) ends it with the peer's reason, which the lane gives to every
 * message waiting for it.
 */
final class OutboundConnectionHandler extends ChannelInboundHandlerAdapter {
  private final OutboundLane lane;
  private boolean acknowledged;
  private String failure;

  OutboundConnectionHandler(OutboundLane lane) {
    this.lane = lane;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    try {
      if (acknowledged) {
        if (lane.lane() != Lane.CONTROL) {
          throw new Wire.ProtocolException("a frame after the handshake acknowledgement on the ordinary lane");
        }
        if (Wire.isHeartbeatResponse(frame)) {
          lane.heartbeatResponse(ctx.channel());
        } else {
          lane.systemAck(ctx.channel(), Wire.decodeSystemAck(frame));
        }
        return;
      }
      Wire.Refusal refusal = Wire.decodeRefusal(frame);
      if (refusal != null) {
        failure = lane.association().remote + " (" + ctx.channel().remoteAddress() + ") refused the handshake: " + refusal.reason();
        if (refusal.isFinal()) {
          lane.refused(ctx.channel());
        }
        ctx.close();
        return;
      }
      long peerUid = Wire.decodeAck(frame);
      acknowledged = true;
      ctx.pipeline().remove(NettyTransport.HANDSHAKE_TIMEOUT); // an idle link is fine once established
      lane.handshakeDone(ctx.channel(), peerUid);
    } catch (Wire.ProtocolException e) {
      failure = "protocol error from " + ctx.channel().remoteAddress() + ": " + e.getMessage();
      ctx.close();
    } finally {
      frame.release();
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    lane.writable(ctx.channel());
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (failure == null) {
      failure = cause instanceof HandshakeDeadline.Expired ? "no handshake acknowledgement in time: " + cause.getMessage() : FailureReasons.describe(cause);
    }
    ctx.close();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof SslHandshakeCompletionEvent done) {
      if (done.isSuccess()) {
        NettyTransport.logTlsSession(lane.logger(), ctx, "to");
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
    lane.closed(ctx.channel(), failure);
  }
}
