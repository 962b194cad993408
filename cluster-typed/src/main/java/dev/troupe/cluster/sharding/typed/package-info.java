/**
 * Cluster sharding for typed actors: {@link dev.troupe.cluster.sharding.typed.ClusterSharding},
 * {@link dev.troupe.cluster.sharding.typed.Entity}, {@link
 * dev.troupe.cluster.sharding.typed.EntityTypeKey} and {@link
 * dev.troupe.cluster.sharding.typed.EntityRef}, over the cluster's sharding.
 */
package dev.troupe.cluster.sharding.typed;
