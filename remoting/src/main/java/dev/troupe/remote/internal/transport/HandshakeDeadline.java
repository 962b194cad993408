package dev.troupe.remote.internal.transport;

import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection whose handshake is not done within a fixed time of the connection's start
 * (accepted, or connected on the outbound side): an absolute deadline, which bytes trickling in do
 * not push back. The connection's last handler removes it once the handshake is done; until then
 * it fires {@link Expired} down the pipeline at the deadline, and that handler closes the
 * connection with the reason.
 */
final class HandshakeDeadline extends ChannelInboundHandlerAdapter {
  /** The deadline passed before the handshake was done. */
  static final class Expired extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Expired(long millis) {
      super("no handshake within " + millis + " ms of the connection's start (troupe.remote.advanced.handshake-timeout)", null, false, false);
    }
  }

  private final long millis;
  private ScheduledFuture<?> timer;

  HandshakeDeadline(long millis) {
    this.millis = millis;
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
