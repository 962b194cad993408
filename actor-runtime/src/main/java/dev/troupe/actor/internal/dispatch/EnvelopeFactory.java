package dev.troupe.actor.internal.dispatch;

import dev.troupe.actor.ActorRef;

/**
 * Makes the envelope of a local send when a module installed one on the system ({@code
 * ActorSystemImpl.installEnvelopeFactory}); today the tracing module, whose envelope carries the
 * sender's trace context to the receiving actor. Without one, a local {@code tell} allocates a
 * plain {@link Envelope}, as it always did, after one null check.
 *
 * <p>Called on the sender's thread, for every local send while installed: it decides per message
 * (e.g. a plain envelope when no trace is current), must be cheap and must not throw.
 *
 * <p>Remote sends do not go through it: a factory that also implements {@code
 * dev.troupe.runtime.spi.TraceCarrier} hands remoting the context for its frame and takes it back
 * on arrival.
 */
public interface EnvelopeFactory {
  /**
   * @param message the message, never null
   * @param sender the sender, may be null
   * @param recipient the local actor it is for
   * @return the envelope to enqueue: a plain {@link Envelope} or a subclass
   */
  Envelope envelope(Object message, ActorRef sender, ActorRef recipient);
}
