/**
 * Cluster-aware routers built in code: {@link dev.troupe.cluster.routing.ClusterRouterPool} deploys
 * a pool's routees onto the members, {@link dev.troupe.cluster.routing.ClusterRouterGroup} looks a
 * group's paths up on them, as a deployment section with {@code cluster.enabled = on} does.
 */
package dev.troupe.cluster.routing;
