package dev.troupe.routing;

import java.util.Objects;

/**
 * Wraps a message with a key for a consistent-hashing router; the routee receives only {@code
 * message}.
 *
 * @param message the message to deliver
 * @param hashKey the key
 */
public record ConsistentHashableEnvelope(Object message, Object hashKey) {
  /** @throws NullPointerException if either is null */
  public ConsistentHashableEnvelope {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(hashKey, "hashKey");
  }
}
