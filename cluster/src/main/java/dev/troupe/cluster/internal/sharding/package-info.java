/**
 * Cluster sharding's engine (not exported): placement ({@link
 * dev.troupe.cluster.internal.sharding.Placement}, rendezvous hashing over the members with the
 * type's role), the region ({@link dev.troupe.cluster.internal.sharding.RegionActor}: routing,
 * buffering, the hand-over protocol) and its shards, over an abstract membership ({@link
 * dev.troupe.cluster.internal.sharding.ShardingTopology}) that the cluster wiring implements and
 * that tests feed by hand ({@link dev.troupe.cluster.internal.sharding.ManualShardingTopology}).
 */
package dev.troupe.cluster.internal.sharding;
