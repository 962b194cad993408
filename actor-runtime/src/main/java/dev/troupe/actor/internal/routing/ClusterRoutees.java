package dev.troupe.actor.internal.routing;

import dev.troupe.actor.Address;
import dev.troupe.routing.Routee;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the routees of a cluster-aware router live, node by node, and where the next one goes.
 *
 * <p>The rules: routees live only on the eligible nodes the cluster last reported; a pool keeps at
 * most {@code max-nr-of-instances-per-node} on each, a group looks each of its paths up once on each
 * (it ignores {@code max-nr-of-instances-per-node}); {@code total-instances} caps them all. A new
 * routee goes to the eligible node with the fewest, the first in address order on a tie, so that the
 * routees spread evenly before any node gets a second one. A node that is no longer eligible loses
 * its routees at once; routees that went elsewhere stay where they are (nothing moves to fill a cap).
 *
 * <p>Not thread-safe: the router actor owns it (the creating thread, before the router starts).
 */
final class ClusterRoutees {
  /** A routee and the group path it was looked up by (null for a pool's). */
  private record Placed(Routee routee, String path) {}

  private final DeploymentSections.ClusterSection section;
  private final List<String> groupPaths; // null for a pool
  private final Map<Address, List<Placed>> byNode = new HashMap<>();
  private List<Address> nodes = List.of();
  private int total;

  /**
   * @param section the deployment section's cluster part
   * @param groupPaths a group's paths, or null for a pool
   */
  ClusterRoutees(DeploymentSections.ClusterSection section, List<String> groupPaths) {
    this.section = section;
    this.groupPaths = groupPaths;
  }

  /** @return the section's cluster part */
  DeploymentSections.ClusterSection section() {
    return section;
  }

  /** @return the roles a node must have */
  Set<String> useRoles() {
    return section.useRoles();
  }

  /**
   * The cluster's news: these nodes are eligible now.
   *
   * @param eligible the eligible nodes, in address order
   * @return the routees on nodes that are not eligible any more, forgotten here; the caller removes
   *     them from the router
   */
  List<Routee> retain(List<Address> eligible) {
    nodes = List.copyOf(eligible);
    List<Routee> gone = new ArrayList<>();
    for (Iterator<Map.Entry<Address, List<Placed>>> it = byNode.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Address, List<Placed>> e = it.next();
      if (!nodes.contains(e.getKey())) {
        for (Placed p : e.getValue()) {
          gone.add(p.routee());
        }
        total -= e.getValue().size();
        it.remove();
      }
    }
    return gone;
  }

  /** @return the node the next routee goes to, or null when the caps are reached */
  Address nextNode() {
    if (total >= section.totalInstances()) {
      return null;
    }
    int limit = groupPaths == null ? section.maxPerNode() : groupPaths.size();
    Address best = null;
    int fewest = Integer.MAX_VALUE;
    for (Address n : nodes) {
      int c = count(n);
      if (c < limit && c < fewest) {
        best = n;
        fewest = c;
      }
    }
    return best;
  }

  /**
   * @param node a node {@link #nextNode()} returned
   * @return the first group path not yet looked up on it
   */
  String nextPath(Address node) {
    List<Placed> there = byNode.getOrDefault(node, List.of());
    for (String p : groupPaths) {
      boolean used = false;
      for (Placed x : there) {
        used |= p.equals(x.path());
      }
      if (!used) {
        return p;
      }
    }
    throw new IllegalStateException("every path is looked up on " + node);
  }

  /**
   * Records a new routee.
   *
   * @param node where it lives
   * @param routee the routee
   * @param path the group path it was looked up by, or null for a pool's
   */
  void placed(Address node, Routee routee, String path) {
    byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(new Placed(routee, path));
    total++;
  }

  /**
   * Forgets a routee that stopped or was removed by hand; it is not replaced until the cluster's
   * next news.
   *
   * @param routee the routee
   */
  void removed(Routee routee) {
    for (Iterator<List<Placed>> it = byNode.values().iterator(); it.hasNext(); ) {
      List<Placed> there = it.next();
      if (there.removeIf(p -> p.routee().equals(routee))) {
        total--;
        if (there.isEmpty()) {
          it.remove();
        }
        return;
      }
    }
  }

  /** @return how many routees live on {@code node} */
  int count(Address node) {
    List<Placed> there = byNode.get(node);
    return there == null ? 0 : there.size();
  }

  /** @return how many routees there are in all */
  int total() {
    return total;
  }
}
