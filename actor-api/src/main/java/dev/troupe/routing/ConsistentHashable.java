package dev.troupe.routing;

/**
 * A message that carries its own key for consistent-hashing routers. The key's {@code hashCode}
 * and {@code equals} decide the routee; strings, numbers and byte arrays hash stably across runs.
 */
public interface ConsistentHashable {
  /** @return the key; messages with equal keys go to the same routee */
  Object consistentHashKey();
}
