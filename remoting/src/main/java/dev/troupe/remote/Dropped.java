package dev.troupe.remote;

import dev.troupe.actor.ActorRef;

/**
 * A message remoting dropped, published on the event stream for every one: too large for {@code
 * troupe.remote.maximum-frame-size}, not serializable, unreadable on arrival, or for a node that
 * cannot be reached or refused the connection. User messages are delivered at most once; this is
 * how a drop is seen. When the sender is the temporary reply ref of an ask of this node, that ask
 * also fails at once with a {@link dev.troupe.pattern.AskFailedException} giving the reason.
 *
 * @param message the message (as sent, or as far as it could be read)
 * @param reason why it was dropped
 * @param sender the sender, or null
 * @param recipient the intended recipient
 */
public record Dropped(Object message, String reason, ActorRef sender, ActorRef recipient) {}
