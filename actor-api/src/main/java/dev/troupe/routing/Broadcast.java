package dev.troupe.routing;

import java.util.Objects;

/**
 * Sent to any router, delivers {@code message} (unwrapped) to every current routee, with the
 * original sender. Goes through the router actor, so it is ordered after earlier management
 * messages.
 *
 * @param message the message for all routees
 */
public record Broadcast(Object message) {
  /** @throws NullPointerException if {@code message} is null */
  public Broadcast {
    Objects.requireNonNull(message, "message");
  }
}
