package dev.troupe.cluster;

/**
 * Where a member is in its life in the cluster. A member moves only forward: {@code JOINING -> UP
 * -> LEAVING -> EXITING -> REMOVED} when it leaves gracefully, {@code ... -> DOWN -> REMOVED} when
 * it is downed (it went without leaving, or was downed by hand). A removed incarnation never comes
 * back; the node may join again as a new incarnation (a new uid).
 */
public enum MemberStatus {
  /** In the engine's view, waiting for {@code troupe.cluster.min-nr-of-members} to be reached. */
  JOINING,
  /** A full member: counted by downing, may be the leader. */
  UP,
  /** Announced that it leaves; still in the engine's view. */
  LEAVING,
  /** Left the engine's view after announcing it would; about to be removed. */
  EXITING,
  /** Downed (by a downing decision or by hand); about to be removed. */
  DOWN,
  /** Out of the cluster for good. */
  REMOVED
}
