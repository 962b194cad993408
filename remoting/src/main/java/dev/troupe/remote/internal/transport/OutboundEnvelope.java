package dev.troupe.remote.internal.transport;

import dev.troupe.actor.ActorRef;
import dev.troupe.serialization.Serialized;

/**
 * A message on its way out, serialized on the sender's thread and waiting in a lane's queue.
 *
 * @param recipient the remote actor (the key of its path in the connection's string table, and
 *     the recipient named by a {@code Dropped} event)
 * @param recipientPath the recipient's path with its uid, as it is sent
 * @param sender the sender, or null
 * @param message the message as sent (for the {@code Dropped} event should it not go out)
 * @param payload its serialized form
 * @param traceContext the sender's trace context for the frame ({@link Wire}), or null: no trace
 *     was current, or no tracing module is installed
 */
public record OutboundEnvelope(
    ActorRef recipient, String recipientPath, ActorRef sender, Object message, Serialized payload, String traceContext)
    implements Outbound {

  /** An envelope that carries no trace context (system messages, and every message while nothing traces). */
  public OutboundEnvelope(ActorRef recipient, String recipientPath, ActorRef sender, Object message, Serialized payload) {
    this(recipient, recipientPath, sender, message, payload, null);
  }
}
