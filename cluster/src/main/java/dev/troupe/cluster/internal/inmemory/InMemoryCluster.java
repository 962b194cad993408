package dev.troupe.cluster.internal.inmemory;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.spi.EngineMember;
import dev.troupe.cluster.spi.MembershipView;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory engine's groups, one per cluster name in this JVM, and the hooks a test uses to make
 * things happen to them.
 *
 * <p>The model: every node that joined and has not left or crashed is <em>live</em>, in the order
 * the group admitted it. Live nodes are split into <em>sides</em> (one side unless a test split
 * them); each side is one group with one view: its live nodes, oldest first, the same list on every
 * node of the side. Each change publishes a view, with a version from one counter per cluster name
 * (so every node's versions increase), to every node of each side it changed:
 *
 * <ul>
 *   <li>{@code join([])} founds a new side; {@code join(endpoints)} joins the side of the first live
 *       node with one of those endpoints, or fails with a {@link ConnectException} when none is
 *       live. Endpoints look like {@code in-memory:7}.
 *   <li>{@code leave()}: the node's side gets a view without it.
 *   <li>{@code close()} or {@link #crash}: the node's side hears {@code suspected(node)}, then a view
 *       without it. The crashed node hears nothing more.
 *   <li>{@link #partition}: each side hears {@code suspected} for each member it lost, then its new
 *       view.
 *   <li>{@link #heal}: all live nodes form one side again; every node gets the view with {@code
 *       healed = true} (when there was more than one side).
 *   <li>{@link #suspect} / {@link #unsuspect}: the node's side-mates hear it; the views stay.
 * </ul>
 *
 * <p>Every hook acts at once (no failure-detection delay) and the reports are queued before the
 * hook returns; they arrive on each node's report thread. A hook naming a cluster or node that is
 * not live fails with an {@link IllegalArgumentException}. Thread-safe: one lock per cluster name.
 *
 * <p>Usable from the cluster module's own tests, and from any test on the class path (the package
 * is not exported to modules).
 */
public final class InMemoryCluster {
  private static final String ENDPOINT_PREFIX = "in-memory:";
  private static final Map<String, Group> GROUPS = new ConcurrentHashMap<>();

  private InMemoryCluster() {}

  /**
   * @param cluster the cluster name (the actor system's name)
   * @return the live nodes of that cluster, on every side, in the order they were admitted; empty
   *     when there are none
   */
  public static List<UniqueAddress> members(String cluster) {
    Group g = GROUPS.get(cluster);
    return g == null ? List.of() : g.members();
  }

  /**
   * Takes a node out without a leave, as a crashed process: its side hears {@code suspected}, then
   * a view without it; the node hears nothing more.
   *
   * @param cluster the cluster name
   * @param node a live node of it
   */
  public static void crash(String cluster, UniqueAddress node) {
    group(cluster).remove(node, true);
  }

  /**
   * The node's side-mates hear {@code suspected(node)}; views do not change.
   *
   * @param cluster the cluster name
   * @param node a live node of it
   */
  public static void suspect(String cluster, UniqueAddress node) {
    group(cluster).suspicion(node, true);
  }

  /**
   * The node's side-mates hear {@code unsuspected(node)}.
   *
   * @param cluster the cluster name
   * @param node a live node of it
   */
  public static void unsuspect(String cluster, UniqueAddress node) {
    group(cluster).suspicion(node, false);
  }

  /**
   * Splits the live nodes into sides: each given set is one side, and the live nodes in none of
   * them form one more side. Members of one side never hear of the others' changes until {@link
   * #heal}.
   *
   * @param cluster the cluster name
   * @param sides disjoint sets of live nodes
   */
  public static void partition(String cluster, List<Set<UniqueAddress>> sides) {
    group(cluster).partition(sides);
  }

  /**
   * Joins every side into one group again: all live nodes get one view, oldest first, with {@code
   * healed = true}.
   *
   * @param cluster the cluster name
   */
  public static void heal(String cluster) {
    group(cluster).heal();
  }

  // ---- used by the provider ----

  static List<Long> parseEndpoints(List<String> endpoints) {
    Objects.requireNonNull(endpoints, "seedEndpoints");
    List<Long> ids = new ArrayList<>(endpoints.size());
    for (String e : endpoints) {
      long id = -1;
      if (e != null && e.startsWith(ENDPOINT_PREFIX)) {
        try {
          id = Long.parseLong(e.substring(ENDPOINT_PREFIX.length()));
        } catch (NumberFormatException ignored) {
          // reported below
        }
      }
      if (id <= 0) {
        throw new IllegalArgumentException(
            "malformed in-memory engine endpoint '" + e + "': expected " + ENDPOINT_PREFIX + "<positive number>");
      }
      ids.add(id);
    }
    return ids;
  }

  static String join(String cluster, InMemoryMembershipProvider node, List<Long> seeds) throws ConnectException {
    // a group is removed when its last node goes; retry if we found one just being removed
    while (true) {
      Group g = GROUPS.computeIfAbsent(cluster, Group::new);
      String endpoint = g.join(node, seeds);
      if (endpoint != null) {
        return endpoint;
      }
    }
  }

  static void remove(String cluster, InMemoryMembershipProvider node, boolean crash) {
    Group g = GROUPS.get(cluster);
    if (g != null) {
      g.remove(node.node(), crash);
    }
  }

  private static Group group(String cluster) {
    Group g = GROUPS.get(cluster);
    if (g == null) {
      throw new IllegalArgumentException("no in-memory cluster named '" + cluster + "' has live nodes");
    }
    return g;
  }

  /** One cluster name's live nodes. */
  private static final class Group {
    private final String name;
    // guarded by this
    private final List<Node> live = new ArrayList<>(); // admission order
    private long nextVersion = 1;
    private long nextEndpoint = 1;
    private int nextSide = 1;
    private boolean removed;

    Group(String name) {
      this.name = name;
    }

    private static final class Node {
      final InMemoryMembershipProvider provider;
      final long endpoint;
      int side;

      Node(InMemoryMembershipProvider provider, long endpoint, int side) {
        this.provider = provider;
        this.endpoint = endpoint;
        this.side = side;
      }
    }

    synchronized List<UniqueAddress> members() {
      return live.stream().map(n -> n.provider.node()).toList();
    }

    /** @return the endpoint, or null when this group was just removed (the caller retries) */
    synchronized String join(InMemoryMembershipProvider provider, List<Long> seeds) throws ConnectException {
      if (removed) {
        return null;
      }
      int side;
      if (seeds.isEmpty()) {
        side = nextSide++;
      } else {
        Node seed = live.stream().filter(n -> seeds.contains(n.endpoint)).findFirst().orElse(null);
        if (seed == null) {
          if (live.isEmpty()) {
            removeIfEmpty();
          }
          throw new ConnectException(
              "no live member of in-memory cluster '" + name + "' at " + seeds.stream().map(s -> ENDPOINT_PREFIX + s).toList());
        }
        side = seed.side;
      }
      for (Node n : live) {
        if (n.provider.node().equals(provider.node())) {
          throw new IllegalStateException(provider.node() + " is already a live member of '" + name + "'");
        }
      }
      Node node = new Node(provider, nextEndpoint++, side);
      live.add(node);
      publish(side, false);
      return ENDPOINT_PREFIX + node.endpoint;
    }

    synchronized void remove(UniqueAddress member, boolean crash) {
      Node node = find(member);
      if (node == null) {
        if (crash) {
          throw new IllegalArgumentException(member + " is not a live member of in-memory cluster '" + name + "'");
        }
        return;
      }
      live.remove(node);
      node.provider.stop();
      if (crash) {
        for (Node n : live) {
          if (n.side == node.side) {
            n.provider.reportSuspected(member);
          }
        }
      }
      publish(node.side, false);
      removeIfEmpty();
    }

    synchronized void suspicion(UniqueAddress member, boolean suspected) {
      Node node = find(member);
      if (node == null) {
        throw new IllegalArgumentException(member + " is not a live member of in-memory cluster '" + name + "'");
      }
      for (Node n : live) {
        if (n != node && n.side == node.side) {
          if (suspected) {
            n.provider.reportSuspected(member);
          } else {
            n.provider.reportUnsuspected(member);
          }
        }
      }
    }

    synchronized void partition(List<Set<UniqueAddress>> sides) {
      Map<UniqueAddress, Integer> newSide = new HashMap<>();
      for (Set<UniqueAddress> side : sides) {
        int id = nextSide++;
        for (UniqueAddress u : side) {
          if (find(u) == null) {
            throw new IllegalArgumentException(u + " is not a live member of in-memory cluster '" + name + "'");
          }
          if (newSide.put(u, id) != null) {
            throw new IllegalArgumentException(u + " is on more than one side");
          }
        }
      }
      int rest = nextSide++;
      Map<Node, Integer> oldSide = new HashMap<>();
      for (Node n : live) {
        oldSide.put(n, n.side);
        n.side = newSide.getOrDefault(n.provider.node(), rest);
      }
      Set<Integer> changed = new HashSet<>();
      for (Node n : live) {
        for (Node other : live) {
          if (other != n && oldSide.get(other).equals(oldSide.get(n)) && other.side != n.side) {
            n.provider.reportSuspected(other.provider.node());
            changed.add(n.side);
          }
        }
      }
      for (int side : changed) {
        publish(side, false);
      }
    }

    synchronized void heal() {
      Set<Integer> sides = new HashSet<>();
      for (Node n : live) {
        sides.add(n.side);
      }
      if (sides.size() < 2) {
        return;
      }
      int side = nextSide++;
      for (Node n : live) {
        n.side = side;
      }
      publish(side, true);
    }

    private Node find(UniqueAddress member) {
      for (Node n : live) {
        if (n.provider.node().equals(member)) {
          return n;
        }
      }
      return null;
    }

    private void publish(int side, boolean healed) {
      List<Node> mates = live.stream().filter(n -> n.side == side).toList();
      if (mates.isEmpty()) {
        return;
      }
      List<EngineMember> members = mates.stream().map(n -> n.provider.self()).toList();
      MembershipView view = new MembershipView(nextVersion++, members, healed);
      for (Node n : mates) {
        n.provider.reportView(view);
      }
    }

    private void removeIfEmpty() {
      if (live.isEmpty()) {
        removed = true;
        GROUPS.remove(name, this);
      }
    }
  }
}
