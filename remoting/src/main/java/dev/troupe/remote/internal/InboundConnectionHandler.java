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
 * then reads envelopes ({@link Wire}) and hands each to the provider (a selection goes to this
 * connection's {@link InboundSelections}, to be resolved off the event loop), answers heartbeats on
 * this connection, and hands a leaving notice to the provider. On the control
 * lane every envelope is a sequenced system message: the association delivers it only if it is the
 * next one expected from the peer's incarnation, and each batch of reads is answered with one
 * cumulative acknowledgement on this connection. Bytes that break the
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
  private InboundSelections selections; // with the handshake
  private boolean ackDue;
  private boolean heartbeatDue;
  private long ackUpTo;
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
        int kind = Wire.decodeControl(frame);
        if (kind == Wire.SYSTEM) {
          if (handshake.lane() != Lane.CONTROL) {
            throw new Wire.ProtocolException("a system message on the ordinary lane");
          }
          long seq = Wire.readVarLong(frame);
          if (seq <= 0) {
            throw new Wire.ProtocolException("system message number " + seq);
          }
          envelope(frame, seq);
        } else if (kind == Wire.HEARTBEAT) {
          if (handshake.lane() != Lane.CONTROL) {
            throw new Wire.ProtocolException("a heartbeat on the ordinary lane");
          }
          heartbeatDue = true; // answered on this connection, once per batch of reads
        } else if (kind == Wire.HEARTBEAT_RESPONSE) {
          throw new Wire.ProtocolException("a heartbeat response on an accepted connection (answers come back on the heartbeat's own connection)");
        } else {
          provider.control(kind, handshake.origin());
        }
      } else if (handshake.lane() == Lane.CONTROL) {
        throw new Wire.ProtocolException("a message without a sequence number on the control lane");
      } else {
        envelope(frame, 0);
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
    Association a = provider.association(h.origin());
    boolean up = a != null && a.connectionUp(h.originUid());
    if (!up && a != null && a.retired()) { // retired just now: the association that replaces it takes the connection
      a = provider.association(h.origin());
      up = a != null && a.connectionUp(h.originUid());
    }
    if (a == null) {
      throw new Wire.ProtocolException("this node keeps " + provider.transport().settings().maximumAssociations()
          + " associations already, none idle (troupe.remote.advanced.maximum-associations)");
    }
    if (!up) {
      throw new Wire.ProtocolException("its incarnation (uid " + h.originUid() + ") is quarantined here, or was replaced by a newer one");
    }
    association = a;
    handshake = h;
    selections = provider.inboundSelections(ctx.channel());
    a.inboundOpened(ctx.channel(), h.originUid());
    provider.transport().handshakeAccepted(ctx);
    ctx.writeAndFlush(Wire.encodeAck(ctx.alloc(), provider.uid()));
  }

  /** @param seq the system message's number on the control lane, 0 for a user message */
  private void envelope(ByteBuf b, long seq) {
    InboundTable.Entry recipientEntry = table.read(b);
    if (recipientEntry == null) {
      throw new Wire.ProtocolException("an envelope without recipient");
    }
    InboundTable.Entry senderEntry = table.read(b);
    int serializerId = Wire.unZigZag(Wire.readVarInt(b));
    InboundTable.Entry manifestEntry = table.read(b);
    String manifest = manifestEntry == null ? "" : manifestEntry.text;
    byte[] bytes = ByteBufUtil.getBytes(b);
    InternalActorRef recipient;
    InternalActorRef sender;
    try {
      recipient = recipientEntry.ref(resolve);
      sender = senderEntry == null ? null : senderEntry.ref(resolve);
    } catch (IllegalArgumentException e) {
      recipient = null;
      sender = null;
      String why = "malformed path from " + handshake.origin() + ": " + e.getMessage();
      Runnable drop =
          () -> provider.drops().dropped(new Serialized(serializerId, manifest, bytes), why, null, provider.local().deadLetters());
      if (seq == 0) {
        drop.run();
      } else {
        acknowledge(association.inbound().receive(handshake.originUid(), seq, drop));
      }
      return;
    }
    if (seq == 0) {
      provider.receive(recipient, sender, serializerId, manifest, bytes, handshake.origin(), selections);
    } else {
      InternalActorRef to = recipient;
      InternalActorRef from = sender;
      acknowledge(
          association.inbound().receive(
              handshake.originUid(),
              seq,
              () -> provider.receive(to, from, serializerId, manifest, bytes, handshake.origin(), selections)));
    }
  }

  private void acknowledge(long upTo) {
    if (upTo >= 0) { // -1: from a replaced incarnation, nothing to acknowledge
      ackDue = true;
      ackUpTo = upTo;
    }
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
    if (!ctx.channel().isOpen()) {
      return; // already refused: the rest of its bytes tell nothing new
    }
    if (cause instanceof Error) { // out of memory, a stack overflow: close this connection, whatever else fails
      ctx.close();
    }
    if (cause instanceof ReadTimeoutException) { // the idle timeout: an ordinary end, the peer reconnects when it needs to
      log.logger().debug("closing the connection from {} ({}): nothing read for {}", ctx.channel().remoteAddress(),
          handshake == null ? "?" : handshake.origin() + ", " + handshake.lane() + " lane", provider.transport().settings().inboundIdleTimeout());
      ctx.close();
      return;
    }
    refuse(ctx, cause instanceof HandshakeDeadline.Expired ? cause.getMessage() : FailureReasons.describe(cause));
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
      association.inboundClosed(ctx.channel());
      association.connectionDown();
      association = null;
    }
  }
}
