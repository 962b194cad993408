package dev.troupe.remote.internal.transport;

import dev.troupe.actor.Address;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * The handshake of an accepted connection: reads the peer's first frame as a handshake ({@link
 * Wire}), checks what the transport can check, has the {@link InboundHost} judge the rest, and
 * answers with the acknowledgement or a refusal. Accepted, it fires {@link
 * HandshakeDeadline.HandshakeDone} with the {@link InboundPeer} from the pipeline's head (the
 * deadline gives way to the idle timeout, the {@link InboundDispatcher} learns its peer) and
 * removes itself: every later frame goes straight to the {@link EnvelopeDecoder}. Refused, it
 * writes the refusal once and passes the reason on as an exception: the last handler logs it and
 * closes the connection.
 *
 * <p><b>What a handshake may claim.</b> The handshake names the origin node and its incarnation
 * (uid); nothing is acknowledged, so this node's uid is not told, before the claim passed:
 *
 * <ol>
 *   <li>the target is this node's own address, and the origin is not (a refusal for good: the
 *       same handshake would be refused again);
 *   <li>with TLS, the TLS handshake has completed, so the peer holds the key of a certificate that
 *       chains to this node's trust store; and, with {@code tls.verify-peer-origin = on} (the
 *       default), that certificate names the origin's host among its subject alternative names (an
 *       IP address entry for an IP, a DNS entry, wildcards in the leftmost label as HTTPS allows,
 *       for a name; {@link PeerCertificates}). A trusted node can claim only addresses on hosts
 *       its certificate names (any system name and port there);
 *   <li>the host judges the uid ({@link InboundHost#accept}: the origin's association believes a
 *       restart claim only once this node's own connection to that address confirms it, refuses
 *       a second control connection of an incarnation and incarnations that are over).
 * </ol>
 */
final class InboundHandshakeHandler extends ChannelInboundHandlerAdapter {
  private final InboundHost host;
  private final boolean verifyPeerOrigin;
  private final int largeFrameLimit;
  private boolean refused;

  /** A handler whose large-message lanes read frames of up to {@code maximum-large-frame-size}'s default. */
  InboundHandshakeHandler(InboundHost host, boolean verifyPeerOrigin) {
    this(host, verifyPeerOrigin, 2 * 1024 * 1024);
  }

  /** @param largeFrameLimit {@code maximum-large-frame-size}: what a large-message lane reads per frame once accepted */
  InboundHandshakeHandler(InboundHost host, boolean verifyPeerOrigin, int largeFrameLimit) {
    this.host = host;
    this.verifyPeerOrigin = verifyPeerOrigin;
    this.largeFrameLimit = largeFrameLimit;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    InboundPeer peer;
    try {
      if (refused) {
        return; // the connection is closing: what came after the refused handshake is not read
      }
      Wire.Handshake h = Wire.decodeHandshake(frame);
      String wrongAddress = wrongAddress(h);
      if (wrongAddress != null) { // the same handshake would be refused again: the peer stops trying
        ctx.writeAndFlush(Wire.encodeRefusal(ctx.alloc(), true, wrongAddress), ctx.voidPromise());
        throw new Wire.ProtocolException(wrongAddress);
      }
      try {
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (tls != null) {
          checkCertificate(tls, h.origin());
        }
        peer = host.accept(ctx.channel(), h);
      } catch (Wire.ProtocolException refused) {
        // a handshake of this version that is refused: the peer learns why, once, before the close
        ctx.writeAndFlush(Wire.encodeRefusal(ctx.alloc(), false, refused.getMessage()), ctx.voidPromise());
        throw refused;
      }
      ctx.pipeline().fireUserEventTriggered(new HandshakeDeadline.HandshakeDone(peer, h));
      ctx.pipeline().remove(this);
      if (h.lane() == Lane.LARGE) { // after this handler is gone: frames read on go to the decoder
        NettyTransport.raiseFrameLimit(ctx.pipeline(), largeFrameLimit);
      }
      ctx.writeAndFlush(Wire.encodeAck(ctx.alloc(), host.uid()));
    } catch (Wire.ProtocolException e) {
      refused = true; // stays in place, so that no later frame of this connection reaches the decoder
      ctx.fireExceptionCaught(e);
    } finally {
      frame.release();
    }
  }

  /** @return why a handshake for another address than this node's, or from its own, is refused; else null */
  private String wrongAddress(Wire.Handshake h) {
    Address self = host.address();
    if (!h.target().equals(self)) {
      return h.target().system().equals(self.system())
          ? "handshake for " + h.target() + ", but this node is " + self
          : "handshake for system '" + h.target().system() + "', but this is '" + self.system() + "' (" + self + ")";
    }
    return h.origin().equals(self) ? "handshake from this node's own address " + self : null;
  }

  /**
   * Refuses the handshake unless mutual TLS completed and, with {@code verify-peer-origin}, the
   * peer's certificate names the host of the origin it claims.
   */
  private void checkCertificate(SslHandler tls, Address origin) {
    if (!tls.handshakeFuture().isSuccess()) { // cannot happen: no byte is decrypted before; checked all the same
      throw new Wire.ProtocolException("a handshake before the TLS handshake completed");
    }
    if (!verifyPeerOrigin) {
      return;
    }
    String hostName = origin.host().orElseThrow(); // the handshake's decoding checked it
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
    if (!PeerCertificates.names(cert, hostName)) {
      throw new Wire.ProtocolException(
          "it claims to be " + origin + ", but its certificate (" + cert.getSubjectX500Principal().getName() + ", "
              + PeerCertificates.describeNames(cert) + ") does not name " + hostName
              + " (troupe.remote.tls.verify-peer-origin)");
    }
  }
}
