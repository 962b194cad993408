package dev.troupe.cluster.routing;

import dev.troupe.actor.Deploy;
import java.util.Set;

/**
 * Where a {@link ClusterRouterPool} deploys its routees: on members that are {@code Up}, reachable
 * and have every role of {@code useRoles} (the router's own node only with {@code
 * allowLocalRoutees}), at most {@code maxInstancesPerNode} on each and {@code totalInstances} in
 * all. The same as a deployment section's {@code cluster} part ({@code
 * cluster.max-nr-of-instances-per-node}, {@code cluster.allow-local-routees}, {@code
 * cluster.use-roles}, {@code total-instances}).
 */
public final class ClusterRouterPoolSettings {
  private final Deploy.ClusterRouting routing; // checks the limits and roles, and is what the router gets

  /**
   * @param totalInstances the most routees in all, at least 1
   * @param maxInstancesPerNode the most routees on one member, at least 1
   * @param allowLocalRoutees whether the router's own node may get routees
   * @param useRoles the roles a member needs (all of them), none blank; empty = any member
   * @throws IllegalArgumentException for a limit under 1 or a blank role
   */
  public ClusterRouterPoolSettings(int totalInstances, int maxInstancesPerNode, boolean allowLocalRoutees,
      Set<String> useRoles) {
    this.routing = new Deploy.ClusterRouting(totalInstances, maxInstancesPerNode, allowLocalRoutees, useRoles);
  }

  /** @return the most routees in all */
  public int totalInstances() {
    return routing.totalInstances();
  }

  /** @return the most routees on one member */
  public int maxInstancesPerNode() {
    return routing.maxInstancesPerNode();
  }

  /** @return whether the router's own node may get routees */
  public boolean allowLocalRoutees() {
    return routing.allowLocalRoutees();
  }

  /** @return the roles a member needs; empty = any member */
  public Set<String> useRoles() {
    return routing.useRoles();
  }

  /**
   * @param roles the roles a member needs
   * @return a copy with them
   */
  public ClusterRouterPoolSettings withUseRoles(Set<String> roles) {
    return new ClusterRouterPoolSettings(totalInstances(), maxInstancesPerNode(), allowLocalRoutees(), roles);
  }

  /** @return the router's deployment */
  Deploy deploy() {
    return Deploy.clusterRouting(routing);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClusterRouterPoolSettings s && s.routing.equals(routing);
  }

  @Override
  public int hashCode() {
    return routing.hashCode();
  }

  @Override
  public String toString() {
    return "ClusterRouterPoolSettings(totalInstances=" + totalInstances() + ", maxInstancesPerNode="
        + maxInstancesPerNode() + ", allowLocalRoutees=" + allowLocalRoutees() + ", useRoles=" + useRoles() + ")";
  }
}
