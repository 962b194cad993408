package dev.troupe.cluster.management;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import java.util.concurrent.atomic.AtomicInteger;

/** Closes a connection that opens while {@code max} others are open. Shared by every connection. */
@ChannelHandler.Sharable
final class ConnectionLimit extends ChannelInboundHandlerAdapter {
  private static final AttributeKey<Boolean> COUNTED = AttributeKey.valueOf(ConnectionLimit.class, "counted");

  private final int max;
  private final AtomicInteger open = new AtomicInteger();

  ConnectionLimit(int max) {
    this.max = max;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    if (open.incrementAndGet() > max) {
      open.decrementAndGet();
      ctx.close();
      return;
    }
    ctx.channel().attr(COUNTED).set(Boolean.TRUE);
    super.channelActive(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (ctx.channel().attr(COUNTED).getAndSet(null) != null) {
      open.decrementAndGet();
    }
    super.channelInactive(ctx);
  }

  /** @return the connections open now */
  int open() {
    return open.get();
  }
}
