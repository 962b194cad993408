package dev.troupe.remote.internal.transport;

import io.netty.channel.Channel;

/**
 * Where the {@link InboundDispatcher} of one accepted connection hands what it read, once the
 * connection's handshake was accepted ({@link InboundHost#accept}). Called on the connection's
 * event loop; none of these may block.
 */
public interface InboundPeer {
  /**
   * @return whether {@code channel}, an accepted control connection, holds its incarnation's
   *     control stream: only its system messages and leaving notice count
   */
  boolean ownsControl(Channel channel);

  /** A user message on the ordinary lane. {@code e} is reused for the next frame: read it now. */
  void message(InboundEnvelope e);

  /**
   * A system message on the control lane, numbered {@link InboundEnvelope#seq()}: delivered only
   * if it is the next one expected. {@code e} is reused for the next frame: read it now.
   *
   * @return the last number delivered from the peer's incarnation, to acknowledge; -1 when there
   *     is nothing to acknowledge
   */
  long systemMessage(InboundEnvelope e);

  /** The peer said it leaves, on the connection that holds its control stream. */
  void leaving();

  /** The connection, whose handshake was accepted, closed. */
  void closed(Channel channel);
}
