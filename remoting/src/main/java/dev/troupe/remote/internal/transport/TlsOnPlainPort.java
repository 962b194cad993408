package dev.troupe.remote.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import java.util.List;

/**
 * The first handler of an accepted connection when TLS is off: looks at the first five bytes once
 * and, if they are the header of a TLS record (a peer with {@code troupe.remote.tls.enabled = on}
 * saying hello), refuses the connection with a reason that names the mismatch. Without it the
 * frame decoder would read the record header as an absurd frame length and the log would say only
 * that a frame was too long. Any other first bytes pass on untouched and this handler leaves the
 * pipeline.
 */
final class TlsOnPlainPort extends ByteToMessageDecoder {
  /** A TLS record header: content type, version (2 bytes), length (2 bytes). */
  private static final int HEADER = 5;

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (in.readableBytes() < HEADER) {
      return;
    }
    if (SslHandler.isEncrypted(in, false)) {
      in.skipBytes(in.readableBytes());
      throw new Wire.ProtocolException(
          "a TLS handshake on a port without TLS (troupe.remote.tls.enabled is off here, on at the peer)");
    }
    ctx.pipeline().remove(this); // hands what it holds to the next handler
  }
}
