package dev.troupe.cluster.management;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Answers one connection's requests through {@link Routes}; closes it on a malformed request or when idle. */
final class RequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger LOG = LoggerFactory.getLogger(RequestHandler.class);

  /** The most requests one connection may have waiting for their answers. */
  static final int MAX_PENDING = 16;

  private final Routes routes;
  private int pending; // requests whose answers are not written yet; IO thread only
  private CompletableFuture<Void> previous = CompletableFuture.completedFuture(null); // the last one's write

  RequestHandler(Routes routes) {
    this.routes = routes;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
    if (request.decoderResult().isFailure()) {
      String why = String.valueOf(request.decoderResult().cause());
      send(ctx, new Routes.Answer(400, false, "malformed request: " + why, null), false);
      return;
    }
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    CompletableFuture<Routes.Answer> answer;
    try {
      String path = new QueryStringDecoder(request.uri()).rawPath();
      answer = routes.answerLater(request.method().name(), path, request.content().toString(StandardCharsets.UTF_8))
          .toCompletableFuture();
    } catch (RuntimeException e) {
      answer = CompletableFuture.failedFuture(e);
    }
    String what = request.method() + " " + request.uri();
    if (answer.isDone() && pending == 0) {
      send(ctx, orError(answer, what), keepAlive);
      return;
    }
    // An answer that comes later (a region asked), or one behind such: written after the answers
    // before it, in the requests' order. Requests already read (pipelined in one packet) queue here;
    // the socket is not read further until the queue is empty, and a client that queues more than
    // MAX_PENDING is cut off.
    if (++pending > MAX_PENDING) {
      LOG.debug("cluster management client {} pipelined more than {} requests; closing", ctx.channel().remoteAddress(),
          MAX_PENDING);
      ctx.close();
      return;
    }
    ctx.channel().config().setAutoRead(false);
    CompletableFuture<Void> written = new CompletableFuture<>();
    CompletableFuture<Void> before = previous;
    previous = written;
    CompletableFuture<Routes.Answer> mine = answer;
    CompletableFuture.allOf(before, mine).whenComplete((x, e) -> ctx.channel().eventLoop().execute(() -> {
      if (ctx.channel().isActive()) {
        send(ctx, orError(mine, what), keepAlive);
      }
      written.complete(null);
      if (--pending == 0) {
        ctx.channel().config().setAutoRead(true);
      }
    }));
  }

  private static Routes.Answer orError(CompletableFuture<Routes.Answer> done, String what) {
    try {
      return done.join();
    } catch (RuntimeException e) {
      LOG.warn("cluster management failed to answer {}", what, e);
      return new Routes.Answer(500, false, "internal error: " + e, null);
    }
  }

  private static void send(ChannelHandlerContext ctx, Routes.Answer answer, boolean keepAlive) {
    keepAlive = keepAlive && answer.status() < 500;
    byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
        HttpResponseStatus.valueOf(answer.status()), Unpooled.wrappedBuffer(body));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, answer.json() ? "application/json" : "text/plain; charset=UTF-8");
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
    if (answer.allow() != null) {
      response.headers().set(HttpHeaderNames.ALLOW, answer.allow());
    }
    if (keepAlive) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      ctx.writeAndFlush(response);
    } else {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof IdleStateEvent) {
      ctx.close();
    } else {
      super.userEventTriggered(ctx, evt);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("cluster management connection {} failed; closing it", ctx.channel().remoteAddress(), cause);
    ctx.close();
  }
}
