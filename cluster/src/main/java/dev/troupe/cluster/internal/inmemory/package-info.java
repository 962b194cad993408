/**
 * {@code troupe.cluster.membership.provider = in-memory}: a membership engine for tests, whose
 * nodes live in one JVM and meet through a static registry per cluster name. {@link
 * dev.troupe.cluster.internal.inmemory.InMemoryCluster} lets a test crash a node, suspect one, split
 * the group and heal it. Not exported: for the cluster module's own tests, and for tests on the
 * class path.
 */
package dev.troupe.cluster.internal.inmemory;
