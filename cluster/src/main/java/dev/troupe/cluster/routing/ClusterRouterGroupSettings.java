package dev.troupe.cluster.routing;

import java.util.ArrayList;
import java.util.LinkedHashSet;
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
  private final int totalInstances;
  private final List<String> routeesPaths;
  private final boolean allowLocalRoutees;
  private final Set<String> useRoles;

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
    this.totalInstances = atLeastOne(totalInstances, "totalInstances");
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
    this.allowLocalRoutees = allowLocalRoutees;
    this.useRoles = roles(useRoles);
  }

  static int atLeastOne(int value, String name) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be at least 1, was " + value);
    }
    return value;
  }

  static Set<String> roles(Set<String> roles) {
    Objects.requireNonNull(roles, "useRoles");
    for (String r : roles) {
      if (r == null || r.isBlank()) {
        throw new IllegalArgumentException("a role must not be blank, was " + roles);
      }
    }
    return Set.copyOf(new LinkedHashSet<>(roles));
  }

  /** @return the most routees in all */
  public int totalInstances() {
    return totalInstances;
  }

  /** @return the paths looked up on each member */
  public List<String> routeesPaths() {
    return routeesPaths;
  }

  /** @return whether the router's own node counts as a member */
  public boolean allowLocalRoutees() {
    return allowLocalRoutees;
  }

  /** @return the roles a member needs; empty = any member */
  public Set<String> useRoles() {
    return useRoles;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClusterRouterGroupSettings s && s.totalInstances == totalInstances
        && s.routeesPaths.equals(routeesPaths) && s.allowLocalRoutees == allowLocalRoutees && s.useRoles.equals(useRoles);
  }

  @Override
  public int hashCode() {
    return Objects.hash(totalInstances, routeesPaths, allowLocalRoutees, useRoles);
  }

  @Override
  public String toString() {
    return "ClusterRouterGroupSettings(totalInstances=" + totalInstances + ", routeesPaths=" + routeesPaths
        + ", allowLocalRoutees=" + allowLocalRoutees + ", useRoles=" + useRoles + ")";
  }
}
