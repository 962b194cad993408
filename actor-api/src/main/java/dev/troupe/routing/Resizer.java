package dev.troupe.routing;

import java.util.List;

/**
 * Decides how a pool's size changes with load. A pool with a resizer counts the messages routed to
 * it; for each message it asks {@link #isTimeForResize(long)} in the sender's thread, and when that
 * answers {@code true} (and no resize is pending) it asks its router actor to resize, without making
 * the sender wait. The router actor then calls {@link #reportMessageCount} and {@link #resize} on
 * its own thread, one call at a time, and adds or stops routees.
 *
 * <p>Thread-safety: {@code isTimeForResize} runs concurrently in many senders' threads and must be
 * cheap and non-blocking; the other methods run on one router's thread at a time. A resizer that
 * keeps per-pool state returns a fresh instance from {@link #newPoolInstance()}.
 */
public interface Resizer {
  /**
   * @param messageCounter how many messages were routed before this one (0 for the first)
   * @return whether to resize now
   */
  boolean isTimeForResize(long messageCounter);

  /**
   * Computes the size change. The result is applied as is (implementations clamp to their bounds).
   *
   * @param routees the load of each current routee
   * @return routees to add (positive) or remove (negative)
   */
  int resize(List<RouteeLoad> routees);

  /**
   * Called before each {@link #resize} with the message count at that point, for resizers that
   * measure throughput. The default does nothing.
   *
   * @param routees the load of each current routee
   * @param messageCounter messages routed so far
   */
  default void reportMessageCount(List<RouteeLoad> routees, long messageCounter) {}

  /**
   * The instance one new pool uses. Stateless resizers (the default) share themselves; resizers with
   * per-pool measurements return a fresh copy, so two pools made from the same props do not mix.
   *
   * @return the instance for a new pool
   */
  default Resizer newPoolInstance() {
    return this;
  }
}
