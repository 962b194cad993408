package dev.troupe.cluster.routing;

import dev.troupe.actor.Deploy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Where a {@link ClusterRouterGroup} looks for its routees: each of {@code routeesPaths} (a path
 * without an address, e.g. {@code /user/worker}) once on every member that is {@code Up}, reachable
 * and has every role of {@code useRoles} (the router's own node only with {@code
 * allowLocalRoutees}), at most {@code totalInstances} routees in all. The same as a deployment
 * section's {@code routees.paths}, {@code cluster} part and {@code total-instances}.
 */
public final class ClusterRouterGroupSettings {
  private final Deploy.ClusterRouting routing; // checks the limit and roles, and is what the router gets
  private final List<String> routeesPaths;

  /**
   * @param totalInstances the most routees in all, at least 1
   * @param routeesPaths the paths looked up on each member: at least one, each starting with
   *     {@code /} and without an address
   * @param allowLocalRoutees whether the router's own node counts as a member
   * @param useRoles the roles a member needs (all of them), none blank; empty = any member
   * @throws IllegalArgumentException for a limit under 1, no path or a path with an address, or a
   *     blank role
   */
  public ClusterRouterGroupSettings(int totalInstances, Iterable<String> routeesPaths, boolean allowLocalRoutees,
      Set<String> useRoles) {
    // a group looks each path up once per member: one "instance" per node
    this.routing = new Deploy.ClusterRouting(totalInstances, 1, allowLocalRoutees, useRoles);
    List<String> paths = new ArrayList<>();
    for (String p : Objects.requireNonNull(routeesPaths, "routeesPaths")) {
      if (p == null || !p.startsWith("/") || p.contains("://")) {
        throw new IllegalArgumentException("a cluster-aware group looks its paths up on every member, so each must be"
            + " a path without an address (e.g. /user/worker), was " + p);
      }
      paths.add(p);
    }
    if (paths.isEmpty()) {
      throw new IllegalArgumentException("a cluster-aware group needs at least one routee path");
    }
    this.routeesPaths = List.copyOf(paths);
  }

  /** @return the most routees in all */
  public int totalInstances() {
    return routing.totalInstances();
  }

  /** @return the paths looked up on each member */
  public List<String> routeesPaths() {
    return routeesPaths;
  }

  /** @return whether the router's own node counts as a member */
  public boolean allowLocalRoutees() {
    return routing.allowLocalRoutees();
  }

  /** @return the roles a member needs; empty = any member */
  public Set<String> useRoles() {
    return routing.useRoles();
  }

  /** @return the router's deployment */
  Deploy deploy() {
    return Deploy.clusterRouting(routing);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClusterRouterGroupSettings s && s.routing.equals(routing) && s.routeesPaths.equals(routeesPaths);
  }

  @Override
  public int hashCode() {
    return Objects.hash(routing, routeesPaths);
  }

  @Override
  public String toString() {
    return "ClusterRouterGroupSettings(totalInstances=" + totalInstances() + ", routeesPaths=" + routeesPaths
        + ", allowLocalRoutees=" + allowLocalRoutees() + ", useRoles=" + useRoles() + ")";
  }
}
