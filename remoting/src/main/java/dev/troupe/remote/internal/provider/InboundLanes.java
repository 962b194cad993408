package dev.troupe.remote.internal.provider;

import dev.troupe.actor.ActorPath;
import java.util.concurrent.Executor;

/**
 * The system's inbound lanes ({@code troupe.remote.advanced.inbound-lanes} of them, more than one):
 * every user message that arrives, from any connection, goes to the lane its recipient's path
 * hashes to. The path, not the ref: a connection may resolve one recipient to different ref
 * objects over time (refs without uid are not remembered), and its messages must still meet in one
 * lane, the lane keeping the order they were read in. The uid takes no part in the path's hash, so
 * successive incarnations of a name share a lane too.
 *
 * @param <T> what the lanes carry
 */
final class InboundLanes<T extends InboundLane.Item> {
  private final InboundLane<T>[] lanes;

  /**
   * @param n the lanes, at least 2
   * @param executor where they are drained (the default dispatcher's executor)
   * @param limit the most messages waiting per lane before the connections feeding it stop reading
   * @param maxBytes the most serialized bytes waiting per lane before they stop reading
   * @param target deserializes and delivers each message
   */
  @SuppressWarnings("unchecked")
  InboundLanes(int n, Executor executor, int limit, long maxBytes, InboundLane.Target<T> target) {
    lanes = (InboundLane<T>[]) new InboundLane<?>[n];
    for (int i = 0; i < n; i++) {
      lanes[i] = new InboundLane<>(executor, limit, maxBytes, target);
    }
  }

  /** Hands {@code item}, a message to {@code recipient}, to that recipient's lane; on an event loop. */
  void submit(ActorPath recipient, T item) {
    submit(recipient.hashCode(), item);
  }

  /**
   * Hands {@code item} to the lane of a recipient whose path's hash code is {@code pathHash} (as
   * the connection's string table keeps it, so that a message does not walk its recipient's path);
   * on an event loop.
   */
  void submit(int pathHash, T item) {
    lanes[index(pathHash, lanes.length)].submit(item);
  }

  /** @return the lane of a path whose hash code is {@code hash} */
  static int index(int hash, int lanes) {
    int h = hash ^ (hash >>> 16); // the low bits of a String-based hash vary little
    return Math.floorMod(h, lanes);
  }

  /** @return lane {@code i}, for tests */
  InboundLane<T> lane(int i) {
    return lanes[i];
  }

  /** @return the number of lanes */
  int size() {
    return lanes.length;
  }
}
