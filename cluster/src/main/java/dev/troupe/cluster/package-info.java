/**
 * The cluster's public API: members ({@link dev.troupe.cluster.Member}, {@link
 * dev.troupe.cluster.MemberStatus}, {@link dev.troupe.cluster.UniqueAddress}), the events a
 * subscriber hears ({@link dev.troupe.cluster.ClusterEvent}) and the state snapshot ({@link
 * dev.troupe.cluster.CurrentClusterState}), and the settings ({@link
 * dev.troupe.cluster.ClusterSettings}, {@code troupe.cluster.*}). The {@code Cluster} extension that
 * joins, leaves and publishes these comes with the wiring; see {@code docs/cluster.md} once it lands.
 */
package dev.troupe.cluster;
