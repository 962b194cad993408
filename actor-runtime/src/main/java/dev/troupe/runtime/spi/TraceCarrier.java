package dev.troupe.runtime.spi;

import dev.troupe.actor.ActorRef;

/**
 * Carries a message's trace context across the network: the counterpart, for remote sends, of the
 * envelope factory that a tracing module installs for local ones. A transport never knows the
 * tracing library; it moves the context as an opaque string, asks for it on the sending side
 * ({@link #outboundContext}) and hands it back on the receiving side ({@link #tellWithin}).
 *
 * <p>The tracing module's envelope factory implements this interface; the system answers it from
 * {@link RuntimeSystem#traceCarrier()} while that factory is installed, and null otherwise, so a
 * transport pays one null check per message when nothing traces.
 *
 * <p>The context is W3C trace context: the {@code traceparent} value, followed, when the context
 * has one, by a line feed and the {@code tracestate} value. It is printable US-ASCII (the line feed
 * aside) of at most {@link #MAX_LENGTH} characters.
 */
public interface TraceCarrier {
  /**
   * Characters of a context at most: what a transport sends and reads; a longer one from a peer
   * breaks the protocol.
   */
  int MAX_LENGTH = 512;

  /**
   * The context current on the calling thread (the sender's), for a message about to leave this
   * node. Called on the sender's thread, for every user message sent to another node while
   * installed: cheap when nothing is current, never throws.
   *
   * @return the context, or null when the send is not traced (no valid span context is current)
   */
  String outboundContext();

  /**
   * Delivers a message that arrived from another node with a context: {@code recipient.tell(message,
   * sender)} while that context is current, so that the local delivery continues the remote
   * sender's trace. A context that is malformed (not a W3C {@code traceparent}: bad hex, wrong
   * length, an invalid id) is ignored: the message is told untraced. Called on the transport's
   * thread; never throws but what {@code tell} throws.
   *
   * @param context the context as it arrived, at most {@link #MAX_LENGTH} characters; not trusted
   * @param recipient a ref of this node
   * @param message the message
   * @param sender the sender, may be null
   * @return false if the context was malformed (the message was told untraced)
   */
  boolean tellWithin(String context, ActorRef recipient, Object message, ActorRef sender);
}
