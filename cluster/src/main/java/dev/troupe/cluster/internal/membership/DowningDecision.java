package dev.troupe.cluster.internal.membership;

/** What one node's downing strategy decides for its side of a partition. */
enum DowningDecision {
  /** Do nothing (strategy {@code off}). */
  NOTHING,
  /** This side stays: down every member this node cannot reach. */
  DOWN_UNREACHABLE,
  /** This side goes: down every member this node reaches, itself included (it shuts down). */
  DOWN_SELF_SIDE
}
