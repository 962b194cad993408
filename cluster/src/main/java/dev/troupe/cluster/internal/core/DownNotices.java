package dev.troupe.cluster.internal.core;

import dev.troupe.cluster.UniqueAddress;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * The members a core told of their down (its own downing decision, or {@code Cluster.down}), whose
 * quarantine then waits {@link #GRACE} after their removal, so that the notice gets out. A
 * quarantine drops what is queued for the incarnation, and a notice waiting for the lane to that
 * member to connect would be dropped with it: the downed member, alive but never told, would live on
 * outside the cluster until it next sent something. A member that cannot be reached (the usual
 * reason to down it) loses nothing by the wait. The core's actor thread only.
 */
final class DownNotices {
  /** How long a downed member's quarantine waits after its removal. */
  static final Duration GRACE = Duration.ofSeconds(1);

  /** What the core's timer sends itself when a downed member's wait is over. */
  record Terminate(UniqueAddress member) {}

  private final Set<UniqueAddress> told = new HashSet<>();

  /** @param member a member just told of its down */
  void told(UniqueAddress member) {
    told.add(member);
  }

  /**
   * @param removed a member just removed
   * @return whether its quarantine waits (it was told of its down here), forgetting it
   */
  boolean waits(UniqueAddress removed) {
    return told.remove(removed);
  }
}
