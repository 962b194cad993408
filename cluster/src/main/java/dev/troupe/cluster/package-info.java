/**
 * The cluster's public API: members ({@link dev.troupe.cluster.Member}, {@link
 * dev.troupe.cluster.MemberStatus}, {@link dev.troupe.cluster.UniqueAddress}), the events a
 * subscriber hears ({@link dev.troupe.cluster.ClusterEvent}) and the state snapshot ({@link
 * dev.troupe.cluster.CurrentClusterState}), and the settings ({@link
 * dev.troupe.cluster.ClusterSettings}, {@code troupe.cluster.*}), and the {@link
 * dev.troupe.cluster.Cluster} extension ({@code Cluster.get(system)}, with {@code
 * troupe.actor.provider = cluster}) that joins, leaves, downs and publishes them.
 */
package dev.troupe.cluster;
