package dev.troupe.remote.internal.transport;

import io.netty.channel.Channel;

/**
 * What an outbound connection tells the lane that dialled it (an association's outbound lane),
 * on the connection's event loop. Each call names the connection, so that a lane that has moved on
 * to a newer one ignores an old one's news.
 */
public interface OutboundListener {
  /** The peer, incarnation {@code peerUid}, acknowledged the handshake on {@code channel}. */
  void handshakeDone(Channel channel, long peerUid);

  /**
   * The peer refused the handshake for good (the same handshake would be refused again): the
   * close that follows fails what waits at once instead of retrying.
   */
  void refused(Channel channel);

  /** {@code channel} closed; {@code reason} says why when it failed, else null. */
  void closed(Channel channel, String reason);

  /** {@code channel}'s writability changed. */
  void writable(Channel channel);

  /** The peer acknowledged every system message up to {@code upTo} on {@code channel}. */
  void systemAck(Channel channel, long upTo);

  /** The peer answered a heartbeat on {@code channel}. */
  void heartbeatResponse(Channel channel);
}
