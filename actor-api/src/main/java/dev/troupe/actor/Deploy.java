package dev.troupe.actor;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Where an actor is deployed: in its parent's system (the default) or on a remote system; for a
 * router, also whether its routees follow a cluster's members ({@link #clusterRouting}).
 */
public final class Deploy {
  private static final Deploy LOCAL = new Deploy(null, null);

  private final Address remote; // null = local
  private final ClusterRouting clusterRouting; // null = an ordinary router

  private Deploy(Address remote, ClusterRouting clusterRouting) {
    this.remote = remote;
    this.clusterRouting = clusterRouting;
  }

  /** @return deployment in the parent's own system */
  public static Deploy local() {
    return LOCAL;
  }

  /**
   * Deployment onto another system (needs {@code troupe.actor.provider = remote}).
   *
   * @param address the target system's address
   * @return the deployment
   */
  public static Deploy remote(Address address) {
    Objects.requireNonNull(address, "address");
    if (address.hasLocalScope()) {
      throw new IllegalArgumentException(
          "remote deployment needs an address with host and port, got " + address);
    }
    return new Deploy(address, null);
  }

  /**
   * A router in its parent's system whose routees follow the cluster's members: the deployment
   * that the cluster module's {@code ClusterRouterPool} and {@code ClusterRouterGroup} give the
   * router's props, the same as a deployment section's {@code cluster} part (which wins when the
   * router's path has one with {@code cluster.enabled = on}). Creating such a router fails with a
   * {@link ConfigurationException} on a system without a cluster.
   *
   * @param routing the limits and the members that may get routees
   * @return the deployment
   */
  public static Deploy clusterRouting(ClusterRouting routing) {
    return new Deploy(null, Objects.requireNonNull(routing, "routing"));
  }

  /** @return the remote address, empty for local deployment */
  public Optional<Address> remoteAddress() {
    return Optional.ofNullable(remote);
  }

  /** @return the cluster routing of a router deployed with {@link #clusterRouting}, else empty */
  public Optional<ClusterRouting> clusterRouting() {
    return Optional.ofNullable(clusterRouting);
  }

  /**
   * Where a cluster-aware router keeps its routees: on members that are {@code Up}, reachable and
   * have every one of {@code useRoles} (the router's own node only with {@code allowLocalRoutees}),
   * at most {@code maxInstancesPerNode} pool routees on each (a group looks each path up once per
   * member) and {@code totalInstances} in all.
   *
   * @param totalInstances the most routees in all, at least 1
   * @param maxInstancesPerNode a pool's routees per member, at least 1 (1 for a group)
   * @param allowLocalRoutees whether the router's own node counts as a member
   * @param useRoles the roles a member needs, none blank; empty = any member
   */
  public record ClusterRouting(int totalInstances, int maxInstancesPerNode, boolean allowLocalRoutees, Set<String> useRoles) {
    /** Checks the limits and copies the roles. */
    public ClusterRouting {
      if (totalInstances < 1) {
        throw new IllegalArgumentException("totalInstances must be at least 1, was " + totalInstances);
      }
      if (maxInstancesPerNode < 1) {
        throw new IllegalArgumentException("maxInstancesPerNode must be at least 1, was " + maxInstancesPerNode);
      }
      Objects.requireNonNull(useRoles, "useRoles");
      for (String r : useRoles) {
        if (r == null || r.isBlank()) {
          throw new IllegalArgumentException("a role must not be blank, was " + useRoles);
        }
      }
      useRoles = Set.copyOf(useRoles);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Deploy d && Objects.equals(remote, d.remote) && Objects.equals(clusterRouting, d.clusterRouting);
  }

  @Override
  public int hashCode() {
    return Objects.hash(remote, clusterRouting);
  }

  @Override
  public String toString() {
    return remote != null ? "Deploy[remote=" + remote + "]"
        : clusterRouting != null ? "Deploy[cluster=" + clusterRouting + "]" : "Deploy[local]";
  }
}
