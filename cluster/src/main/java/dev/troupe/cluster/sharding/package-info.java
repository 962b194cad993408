/**
 * Cluster sharding: entities by id, spread over the members. {@link
 * dev.troupe.cluster.sharding.ClusterSharding#start} starts a type's region on this node; messages sent
 * to it reach their entity on whichever member hosts the entity's shard, created on its first message.
 * Shards are placed by the membership view (every node computes the same owner), move when members
 * come and go after their old owner has stopped their entities, and their messages are held (bounded)
 * meanwhile. See {@link dev.troupe.cluster.sharding.ShardRegion} for the messages and queries, and
 * {@link dev.troupe.cluster.sharding.ClusterShardingSettings} for {@code troupe.cluster.sharding.*}.
 */
package dev.troupe.cluster.sharding;
