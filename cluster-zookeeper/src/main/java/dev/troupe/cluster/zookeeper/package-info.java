/**
 * A membership engine for the cluster on Apache ZooKeeper, through Apache Curator: {@code
 * troupe.cluster.membership.provider = zookeeper}, settings under {@code troupe.cluster.zookeeper}.
 * Each member is an ephemeral sequential node under {@code <root>/<system name>/members}; a view is
 * the ensemble's list of them, oldest (lowest sequence) first, the same order on every member; the
 * session's expiry is the failure detection.
 */
package dev.troupe.cluster.zookeeper;
