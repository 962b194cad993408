package dev.troupe.remote.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Address;
import dev.troupe.actor.internal.InternalActorRef;
import dev.troupe.serialization.Serialized;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.ReadTimeoutException;
import java.util.function.Function;

/**
 * The last handler of an accepted connection: checks the peer's handshake and acknowledges it,
 * then reads envelopes ({@link Wire}) and hands each to the provider, and control frames
 * (heartbeats, their responses, a leaving notice) to the provider's watch of nodes. Bytes that break the
 * protocol close this connection only (logged, rate-limited); a message that cannot be
 * deserialized or delivered is dropped (a {@code Dropped} event) and the connection stays. A failed
 * TLS handshake (an untrusted certificate, a plaintext peer, a timeout) is logged the same way,
 * once per connection.
 */
final class InboundConnectionHandler extends ChannelInboundHandlerAdapter {
  private final RemoteActorRefProvider provider;
  private final RateLimitedLog log;
  private final InboundTable table = new InboundTable();
  private final Function<ActorPath, InternalActorRef> resolve;
  private Wire.Handshake handshake; // null until the peer's handshake was accepted
  private Association association;
  private boolean refused;

  InboundConnectionHandler(RemoteActorRefProvider provider, RateLimitedLog log) {
    this.provider = provider;
    this.log = log;
    this.resolve = provider::resolveActorRef;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    try {
      if (handshake == null) {
        accept(ctx, Wire.decodeHandshake(frame));
      } else if (Wire.isControl(frame)) {
        provider.control(Wire.decodeControl(frame), handshake.origin());
      } else {
        envelope(frame);
      }
    } catch (Wire.ProtocolException e) {
      refuse(ctx, e.getMessage());
    } finally {
      frame.release();
    }
  }

  private void accept(ChannelHandlerContext ctx, Wire.Handshake h) {
    Address self = provider.address();
    if (!h.target().equals(self)) {
      throw new Wire.ProtocolException(
          h.target().system().equals(self.system())
              ? "handshake for " + h.target() + ", but this node is " + self
              : "handshake for system '" + h.target().system() + "', but this is '" + self.system() + "' (" + self + ")");
    }
    if (h.origin().equals(self)) {
      throw new Wire.ProtocolException("handshake from this node's own address " + self);
    }
    handshake = h;
    ctx.pipeline().remove(NettyTransport.HANDSHAKE_TIMEOUT);
    ctx.writeAndFlush(Wire.encodeAck(ctx.alloc(), provider.uid()));
    association = provider.association(h.origin());
    association.connectionUp(h.originUid());
  }

  private void envelope(ByteBuf b) {
    int recipientCode = table.read(b);
    if (recipientCode == InboundTable.NONE) {
      throw new Wire.ProtocolException("an envelope without recipient");
    }
    int senderCode = table.read(b);
    int serializerId = Wire.unZigZag(Wire.readVarInt(b));
    int manifestCode = table.read(b);
    String manifest = manifestCode == InboundTable.NONE ? "" : table.string(manifestCode);
    byte[] bytes = ByteBufUtil.getBytes(b);
    InternalActorRef recipient;
    InternalActorRef sender;
    try {
      recipient = table.ref(recipientCode, resolve);
      sender = senderCode == InboundTable.NONE ? null : table.ref(senderCode, resolve);
    } catch (IllegalArgumentException e) {
      provider.drops().dropped(
          new Serialized(serializerId, manifest, bytes),
          "malformed path from " + handshake.origin() + ": " + e.getMessage(),
          null,
          provider.local().deadLetters());
      return;
    }
    provider.receive(recipient, sender, serializerId, manifest, bytes, handshake.origin());
  }

  private void refuse(ChannelHandlerContext ctx, String why) {
    if (refused) {
      return; // one line per connection: a failed TLS handshake also arrives as its exception
    }
    refused = true;
    log.warn(
        "closing the connection from {}{}: {}",
        ctx.channel().remoteAddress(),
        handshake == null ? "" : " (" + handshake.origin() + ", " + handshake.lane() + " lane)",
        why);
    ctx.close();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (!ctx.channel().isOpen()) {
      return; // already refused: the rest of its bytes tell nothing new
    }
    refuse(ctx, cause instanceof ReadTimeoutException ? "no handshake in time" : FailureReasons.describe(cause));
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
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
    if (association != null) {
      association.connectionDown();
      association = null;
    }
  }
}
