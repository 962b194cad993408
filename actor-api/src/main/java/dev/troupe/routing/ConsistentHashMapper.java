package dev.troupe.routing;

/**
 * Maps a message to its consistent-hashing key; called in the senders' threads, so it must be
 * thread-safe and cheap.
 */
@FunctionalInterface
public interface ConsistentHashMapper {
  /**
   * @param message a message sent to the router
   * @return its key, or {@code null} if this mapper does not know the message
   */
  Object hashKey(Object message);
}
