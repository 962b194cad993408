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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Answers one connection's requests through {@link Routes}; closes it on a malformed request or when idle. */
final class RequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger LOG = LoggerFactory.getLogger(RequestHandler.class);

  private final Routes routes;

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
    Routes.Answer answer;
    try {
      String path = new QueryStringDecoder(request.uri()).rawPath();
      answer = routes.answer(request.method().name(), path, request.content().toString(StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      LOG.warn("cluster management failed to answer {} {}", request.method(), request.uri(), e);
      answer = new Routes.Answer(500, false, "internal error: " + e, null);
    }
    send(ctx, answer, HttpUtil.isKeepAlive(request) && answer.status() < 500);
  }

  private static void send(ChannelHandlerContext ctx, Routes.Answer answer, boolean keepAlive) {
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
