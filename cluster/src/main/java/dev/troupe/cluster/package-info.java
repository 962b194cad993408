/**
 * The cluster's public API: {@code Cluster}, members and their statuses, cluster events. Empty of
 * behaviour while the module is being built; see {@code docs/cluster.md} once it lands.
 */
package dev.troupe.cluster;
