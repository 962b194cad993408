package dev.troupe.cluster.routing;

import java.util.Objects;
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
  private final int totalInstances;
  private final int maxInstancesPerNode;
  private final boolean allowLocalRoutees;
  private final Set<String> useRoles;

  /**
   * @param totalInstances the most routees in all, at least 1
   * @param maxInstancesPerNode the most routees on one member, at least 1
   * @param allowLocalRoutees whether the router's own node may get routees
   * @param useRoles the roles a member needs (all of them), none blank; empty = any member
   * @throws IllegalArgumentException for a limit under 1 or a blank role
   */
  public ClusterRouterPoolSettings(int totalInstances, int maxInstancesPerNode, boolean allowLocalRoutees,
      Set<String> useRoles) {
    this.totalInstances = ClusterRouterGroupSettings.atLeastOne(totalInstances, "totalInstances");
    this.maxInstancesPerNode = ClusterRouterGroupSettings.atLeastOne(maxInstancesPerNode, "maxInstancesPerNode");
    this.allowLocalRoutees = allowLocalRoutees;
    this.useRoles = ClusterRouterGroupSettings.roles(useRoles);
  }

  /** @return the most routees in all */
  public int totalInstances() {
    return totalInstances;
  }

  /** @return the most routees on one member */
  public int maxInstancesPerNode() {
    return maxInstancesPerNode;
  }

  /** @return whether the router's own node may get routees */
  public boolean allowLocalRoutees() {
    return allowLocalRoutees;
  }

  /** @return the roles a member needs; empty = any member */
  public Set<String> useRoles() {
    return useRoles;
  }

  /**
   * @param roles the roles a member needs
   * @return a copy with them
   */
  public ClusterRouterPoolSettings withUseRoles(Set<String> roles) {
    return new ClusterRouterPoolSettings(totalInstances, maxInstancesPerNode, allowLocalRoutees, roles);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClusterRouterPoolSettings s && s.totalInstances == totalInstances
        && s.maxInstancesPerNode == maxInstancesPerNode && s.allowLocalRoutees == allowLocalRoutees
        && s.useRoles.equals(useRoles);
  }

  @Override
  public int hashCode() {
    return Objects.hash(totalInstances, maxInstancesPerNode, allowLocalRoutees, useRoles);
  }

  @Override
  public String toString() {
    return "ClusterRouterPoolSettings(totalInstances=" + totalInstances + ", maxInstancesPerNode=" + maxInstancesPerNode
        + ", allowLocalRoutees=" + allowLocalRoutees + ", useRoles=" + useRoles + ")";
  }
}
