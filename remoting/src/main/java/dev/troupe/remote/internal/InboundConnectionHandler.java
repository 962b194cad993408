package dev.troupe.remote.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Address;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.serialization.Serialized;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.ReadTimeoutException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.function.Function;
import javax.net.ssl.SSLPeerUnverifiedException;

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
 *
 * <p><b>What a handshake may claim.</b> The handshake names the origin node and its incarnation
 * (uid); nothing is acknowledged, so this node's uid is not told, before the claim passed:
 *
 * <ol>
 *   <li>with TLS, the TLS handshake has completed, so the peer holds the key of a certificate that
 *       chains to this node's trust store; and, with {@code tls.verify-peer-origin = on} (the
 *       default), that certificate names the origin's host among its subject alternative names (an
 *       IP address entry for an IP, a DNS entry, wildcards in the leftmost label as HTTPS allows,
 *       for a name; {@link PeerCertificates}). A trusted node can claim only addresses on hosts
 *       its certificate names (any system name and port there);
 *   <li>the origin's {@link Association} judges the uid: a restart claim is believed only once
 *       this node's own connection to that address confirms it, the second control connection of
 *       an incarnation is refused, and incarnations that are over stay refused ({@link
 *       Association}).
 * </ol>
 *
 * After that, the system messages and the leaving notice of a control connection count only while
 * it owns its incarnation's control stream ({@link Association#ownsControl}): a system message
 * from a connection that does not closes it, a leaving notice from one is ignored (logged), as is
 * a leaving notice on the ordinary lane.
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
        Wire.Handshake h = Wire.decodeHandshake(frame);
        String wrongAddress = wrongAddress(h);
        if (wrongAddress != null) { // the same handshake would be refused again: the peer stops trying
          ctx.writeAndFlush(Wire.encodeRefusal(ctx.alloc(), true, wrongAddress), ctx.voidPromise());
          throw new Wire.ProtocolException(wrongAddress);
        }
        try {
          accept(ctx, h);
        } catch (Wire.ProtocolException refused) {
          // a handshake of this version that is refused: the peer learns why, once, before the close
          ctx.writeAndFlush(Wire.encodeRefusal(ctx.alloc(), false, refused.getMessage()), ctx.voidPromise());
          throw refused;
        }
      } else if (Wire.isControl(frame)) {
        int kind = Wire.decodeControl(frame);
        if (kind == Wire.SYSTEM) {
          if (handshake.lane() != Lane.CONTROL) {
            throw new Wire.ProtocolException("a system message on the ordinary lane");
          }
          if (!association.ownsControl(ctx.channel())) {
            throw new Wire.ProtocolException("system messages from a connection that does not hold the control stream of uid " + handshake.originUid());
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
        } else if (kind == Wire.LEAVING) {
          leaving(ctx);
        } else {
          throw new Wire.ProtocolException("unknown control frame kind " + kind); // decodeControl knows no other
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

  /** @return why a handshake for another address than this node's, or from its own, is refused; else null */
  private String wrongAddress(Wire.Handshake h) {
    Address self = provider.address();
    if (!h.target().equals(self)) {
      return h.target().system().equals(self.system())
          ? "handshake for " + h.target() + ", but this node is " + self
          : "handshake for system '" + h.target().system() + "', but this is '" + self.system() + "' (" + self + ")";
    }
    return h.origin().equals(self) ? "handshake from this node's own address " + self : null;
  }

  private void accept(ChannelHandlerContext ctx, Wire.Handshake h) {
    SslHandler tls = ctx.pipeline().get(SslHandler.class);
    if (tls != null) {
      checkCertificate(tls, h.origin());
    }
    Association a = provider.association(h.origin());
    String refused = a == null ? null : a.inboundUp(ctx.channel(), h.lane(), h.originUid());
    if (refused == Association.RETIRED) { // retired just now: the association that replaces it takes the connection
      a = provider.association(h.origin());
      refused = a == null ? null : a.inboundUp(ctx.channel(), h.lane(), h.originUid());
    }
    if (a == null) {
      throw new Wire.ProtocolException("this node keeps " + provider.transport().settings().maximumAssociations()
          + " associations already, none idle (troupe.remote.advanced.maximum-associations)");
    }
    if (refused != null) {
      throw new Wire.ProtocolException(refused);
    }
    association = a;
    handshake = h;
    selections = provider.inboundSelections(ctx.channel());
    provider.transport().handshakeAccepted(ctx);
    ctx.writeAndFlush(Wire.encodeAck(ctx.alloc(), provider.uid()));
  }

  /**
   * Refuses the handshake unless mutual TLS completed and, with {@code verify-peer-origin}, the
   * peer's certificate names the host of the origin it claims.
   */
  private void checkCertificate(SslHandler tls, Address origin) {
    if (!tls.handshakeFuture().isSuccess()) { // cannot happen: no byte is decrypted before; checked all the same
      throw new Wire.ProtocolException("a handshake before the TLS handshake completed");
    }
    if (!provider.settings().tls().verifyPeerOrigin()) {
      return;
    }
    String host = origin.host().orElseThrow(); // the handshake's decoding checked it
    X509Certificate cert;
    try {
      Certificate[] chain = tls.engine().getSession().getPeerCertificates();
      cert = chain.length > 0 && chain[0] instanceof X509Certificate x ? x : null;
    } catch (SSLPeerUnverifiedException e) {
      cert = null;
    }
    if (cert == null) {
      throw new Wire.ProtocolException("it claims to be " + origin + " but presented no certificate");
    }
    if (!PeerCertificates.names(cert, host)) {
      throw new Wire.ProtocolException(
          "it claims to be " + origin + ", but its certificate (" + cert.getSubjectX500Principal().getName() + ", "
              + PeerCertificates.describeNames(cert) + ") does not name " + host
              + " (troupe.remote.tls.verify-peer-origin)");
    }
  }

  /** A leaving notice: counts only from the owner of the incarnation's control stream. */
  private void leaving(ChannelHandlerContext ctx) {
    if (handshake.lane() != Lane.CONTROL || !association.ownsControl(ctx.channel())) {
      log.warn(
          "ignoring a leaving notice from {} ({}, uid {}, {} lane): not the connection that holds that node's control stream",
          ctx.channel().remoteAddress(),
          handshake.origin(),
          handshake.originUid(),
          handshake.lane());
      return;
    }
    provider.leaving(association, handshake.originUid());
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
      association.connectionDown(handshake.originUid());
      association = null;
    }
  }
}
