package dev.troupe.actor;

/**
 * A message that carries another to its final recipient, as a sharding envelope carries an
 * entity's message. Remoting's untrusted mode ({@code troupe.remote.untrusted-mode = on}) checks
 * the carried message, at any depth, as it checks a message sent on its own, so that no wrapper
 * brings {@code PoisonPill}, {@code Kill} or a system message from a peer past it. Implement it on
 * a message class of your own that carries others.
 */
public interface WrappedMessage {
  /** @return the message carried (itself possibly a {@code WrappedMessage}) */
  Object message();
}
