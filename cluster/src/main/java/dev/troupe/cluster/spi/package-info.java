/**
 * The membership SPI: what an engine (JGroups embedded, ZooKeeper or Kubernetes later) tells the
 * cluster, and nothing more. An engine reports <em>views</em> (the members it holds, oldest first,
 * with an increasing version) and <em>suspicions</em>; statuses, events, leaders and downing are
 * the cluster's own policy over those reports, the same whichever engine runs.
 *
 * <p>An engine is found by {@code troupe.cluster.membership.provider}: a {@link
 * dev.troupe.cluster.spi.MembershipProviderFactory#name() name} registered as a {@link
 * java.util.ServiceLoader service}, or the class name of a factory.
 */
package dev.troupe.cluster.spi;
