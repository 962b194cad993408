package dev.troupe.remote.internal.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.ReadTimeoutException;

/**
 * The last handler of an accepted connection: once the {@link InboundHandshakeHandler} accepted
 * the peer ({@link HandshakeDeadline.HandshakeDone}), it takes what the {@link EnvelopeDecoder}
 * decoded and sequences, acknowledges and dispatches it to the connection's {@link InboundPeer}:
 * user messages on the ordinary lane; on the control lane sequenced system messages (delivered
 * only if they are the next expected from the peer's incarnation, each batch of reads answered
 * with one cumulative acknowledgement on this connection), heartbeats (answered on this
 * connection, once per batch of reads, and not while its outbound buffer is full) and the leaving
 * notice.
 *
 * <p>System messages and the leaving notice count only from the connection that holds the
 * incarnation's control stream ({@link InboundPeer#ownsControl}): a system message from another
 * closes this connection, a leaving notice from one is ignored (logged), as is a leaving notice on
 * the ordinary lane.
 *
 * <p>It also ends the connection for every handler before it: bytes that break the protocol (an
 * exception passed on by the handshake handler or the decoder) close this connection only
 * (logged, rate-limited, once per connection); so do a failed TLS handshake (an untrusted
 * certificate, a plaintext peer), the handshake deadline ({@link HandshakeDeadline.Expired}) and
 * the idle timeout (logged at debug: an ordinary end). A message that cannot be deserialized or
 * delivered is the peer's to drop (a {@code Dropped} event); the connection stays.
 */
final class InboundDispatcher extends ChannelInboundHandlerAdapter {
  private final RateLimitedLog log;
  private final long idleTimeoutMillis;
  private Wire.Handshake handshake; // null until the peer's handshake was accepted
  private InboundPeer peer;
  private boolean ackDue;
  private boolean heartbeatDue;
  private long ackUpTo;
  private boolean refused;

  InboundDispatcher(RateLimitedLog log, long idleTimeoutMillis) {
    this.log = log;
    this.idleTimeoutMillis = idleTimeoutMillis;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (peer == null || refused) {
      return; // cannot happen: nothing is decoded before the handshake, nor after a refusal
    }
    try {
      if (msg instanceof InboundEnvelope e) {
        if (e.seq() == 0) {
          if (handshake.lane() == Lane.CONTROL) {
            throw new Wire.ProtocolException("a message without a sequence number on the control lane");
          }
          peer.message(e);
        } else {
          if (handshake.lane() != Lane.CONTROL) {
            throw new Wire.ProtocolException("a system message on the ordinary lane");
          }
          if (!peer.ownsControl(ctx.channel())) {
            throw new Wire.ProtocolException("system messages from a connection that does not hold the control stream of uid " + handshake.originUid());
          }
          long upTo = peer.systemMessage(e);
          if (upTo >= 0) { // -1: from a replaced incarnation, nothing to acknowledge
            ackDue = true;
            ackUpTo = upTo;
          }
        }
      } else if (msg == EnvelopeDecoder.Control.HEARTBEAT) {
        if (handshake.lane() != Lane.CONTROL) {
          throw new Wire.ProtocolException("a heartbeat on the ordinary lane");
        }
        heartbeatDue = true; // answered on this connection, once per batch of reads
      } else if (msg == EnvelopeDecoder.Control.HEARTBEAT_RESPONSE) {
        throw new Wire.ProtocolException("a heartbeat response on an accepted connection (answers come back on the heartbeat's own connection)");
      } else if (msg == EnvelopeDecoder.Control.LEAVING) {
        leaving(ctx);
      }
    } catch (Wire.ProtocolException e) {
      refuse(ctx, e.getMessage());
    }
  }

  /** A leaving notice: counts only from the owner of the incarnation's control stream. */
  private void leaving(ChannelHandlerContext ctx) {
    if (handshake.lane() != Lane.CONTROL || !peer.ownsControl(ctx.channel())) {
      log.warn(
          "ignoring a leaving notice from {} ({}, uid {}, {} lane): not the connection that holds that node's control stream",
          ctx.channel().remoteAddress(),
          handshake.origin(),
          handshake.originUid(),
          handshake.lane());
      return;
    }
    peer.leaving();
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (ackDue && ctx.channel().isOpen()) {
      ackDue = false;
      ctx.writeAndFlush(Wire.encodeSystemAck(ctx.alloc(), ackUpTo), ctx.voidPromise());
    }
    if (heartbeatDue && ctx.channel().isOpen()) {
      heartbeatDue = false;
      if (ctx.channel().isWritable()) { // a peer that does not read gets no more answers queued
        ctx.writeAndFlush(Wire.encodeControl(ctx.alloc(), Wire.HEARTBEAT_RESPONSE), ctx.voidPromise());
      }
    }
    ctx.fireChannelReadComplete();
  }

  private void refuse(ChannelHandlerContext ctx, String why) {
    if (refused) {
      return; // one line per connection: a failed TLS handshake also arrives as its exception
    }
    refused = true;
    ctx.close(); // first: logging may fail too when the cause was an Error
    log.warn(
        "closing the connection from {}{}: {}",
        ctx.channel().remoteAddress(),
        handshake == null ? "" : " (" + handshake.origin() + ", " + handshake.lane() + " lane)",
        why);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof Wire.ProtocolException e) { // from the handshake handler or the decoder
      refuse(ctx, e.getMessage());
      return;
    }
    if (!ctx.channel().isOpen()) {
      return; // already refused: the rest of its bytes tell nothing new
    }
    if (cause instanceof Error) { // out of memory, a stack overflow: close this connection, whatever else fails
      ctx.close();
    }
    if (cause instanceof ReadTimeoutException) { // the idle timeout: an ordinary end, the peer reconnects when it needs to
      log.logger().debug("closing the connection from {} ({}): nothing read for {} ms", ctx.channel().remoteAddress(),
          handshake == null ? "?" : handshake.origin() + ", " + handshake.lane() + " lane", idleTimeoutMillis);
      ctx.close();
      return;
    }
    refuse(ctx, cause instanceof HandshakeDeadline.Expired ? cause.getMessage() : FailureReasons.describe(cause));
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof HandshakeDeadline.HandshakeDone done) {
      peer = done.peer();
      handshake = done.handshake();
      return;
    }
    if (evt instanceof SslHandshakeCompletionEvent done) {
      if (done.isSuccess()) {
        NettyTransport.logTlsSession(log.logger(), ctx, "from");
      } else {
        refuse(ctx, FailureReasons.describeHandshakeFailure(done.cause()));
      }
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (peer != null) {
      InboundPeer p = peer;
      peer = null;
      p.closed(ctx.channel());
    }
    ctx.fireChannelInactive();
  }
}
