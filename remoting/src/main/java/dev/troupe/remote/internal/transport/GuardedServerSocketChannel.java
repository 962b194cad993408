package dev.troupe.remote.internal.transport;

import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * The server channel: unlike Netty's, it stays open when accepting a connection fails with an
 * {@link Error} (an {@code OutOfMemoryError} while the accepted channel is made, say), which
 * Netty's NIO server channel answers by closing itself, so that the node would never accept
 * again. The failure still reaches the pipeline, where Netty's acceptor logs it and pauses
 * accepting for a second. Netty's epoll server channel already stays open after a failed accept,
 * so the epoll transport uses it as it is.
 */
final class GuardedServerSocketChannel extends NioServerSocketChannel {
  @Override
  protected boolean closeOnReadError(Throwable cause) {
    return !isActive();
  }
}
