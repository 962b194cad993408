package dev.troupe.remote.internal.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection whose handshake is not done within a fixed time of the connection's start
 * (accepted, or connected on the outbound side): an absolute deadline, which bytes trickling in do
 * not push back. Until the handshake is done it fires {@link Expired} down the pipeline at the
 * deadline, and the connection's last handler closes the connection with the reason. When the
 * connection's handshake handler fires {@link HandshakeDone} from the pipeline's head, this
 * handler removes itself, on an accepted connection putting in its place the idle timeout ({@code
 * inbound-idle-timeout}: closed after reading nothing for that long) in the same position, before
 * the frame decoder, so that any byte read counts.
 */
final class HandshakeDeadline extends ChannelInboundHandlerAdapter {
  /** The deadline passed before the handshake was done. */
  static final class Expired extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Expired(long millis) {
      super("no handshake within " + millis + " ms of the connection's start (troupe.remote.advanced.handshake-timeout)", null, false, false);
    }
  }

  /**
   * Fired by a connection's handshake handler from the pipeline's head once the handshake is done:
   * the deadline is over, and the handlers after it learn the peer.
   *
   * @param peer where an accepted connection's envelopes go; null on an outbound connection
   * @param handshake the peer's handshake on an accepted connection; null on an outbound one
   */
  record HandshakeDone(InboundPeer peer, Wire.Handshake handshake) {}

  private final long millis;
  private final long idleMillis;
  private ScheduledFuture<?> timer;

  /**
   * @param millis the deadline, from the connection's start
   * @param idleMillis after the handshake, how long the connection may read nothing before it is
   *     closed; 0 for no limit (an outbound connection)
   */
  HandshakeDeadline(long millis, long idleMillis) {
    this.millis = millis;
    this.idleMillis = idleMillis;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof HandshakeDone) {
      if (idleMillis > 0) {
        ctx.pipeline().replace(this, "idle-timeout", new ReadTimeoutHandler(idleMillis, TimeUnit.MILLISECONDS));
      } else {
        ctx.pipeline().remove(this);
      }
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
      start(ctx); // an accepted connection is active from its start
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    start(ctx); // an outbound connection: once connected
    ctx.fireChannelActive();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    stop();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    stop();
    ctx.fireChannelInactive();
  }

  private void start(ChannelHandlerContext ctx) {
    if (timer != null) {
      return;
    }
    timer =
        ctx.executor().schedule(
            () -> {
              if (ctx.channel().isOpen()) {
                ctx.fireExceptionCaught(new Expired(millis));
              }
            },
            millis,
            TimeUnit.MILLISECONDS);
  }

  private void stop() {
    if (timer != null) {
      timer.cancel(false);
    }
  }
}
