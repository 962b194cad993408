package dev.troupe.cluster.typed;

/** What {@link Cluster#manager()} takes: membership commands for this member or another. */
public sealed interface ClusterCommand permits Join, JoinSeedNodes, Leave, Down {}
