package dev.troupe.runtime.spi;

import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import java.util.List;
import java.util.Set;

/**
 * Where a cluster-aware router learns the nodes its routees may live on: a router whose deployment
 * section has {@code cluster.enabled = on} asks its system's provider ({@link
 * ActorRefProvider#routeeNodes()}) for one. The runtime keeps the routing policy (how many routees
 * on which node, the caps, watching and dropping them); the cluster only says which nodes are
 * eligible. A provider without a cluster has none, and such a section then fails {@code actorOf}.
 *
 * <p>A node is eligible when it is an {@code Up} member that every other member can reach, has every
 * role of {@code useRoles} (an empty set: any member), and is not this node unless {@code
 * includeSelf}. Lists come in a stable order that every node computes alike (by address).
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public interface RouteeNodes {

  /**
   * The eligible nodes now, from the membership this node knows, without waiting.
   *
   * @param useRoles the roles a node must all have; empty = any
   * @param includeSelf whether this node may be in the list
   * @return the nodes, in address order
   */
  List<Address> current(Set<String> useRoles, boolean includeSelf);

  /**
   * Props of an actor that follows the membership for a router: started as a child of the router's
   * own actor, it tells its parent a {@link NodesChanged} with the eligible nodes at once, and again
   * after every change to that list; it stops with its parent.
   *
   * @param useRoles the roles a node must all have; empty = any
   * @param includeSelf whether this node may be in the list
   * @return the follower's props
   */
  Props follower(Set<String> useRoles, boolean includeSelf);

  /**
   * The nodes a router's routees may live on now.
   *
   * @param nodes the eligible nodes, in address order
   */
  record NodesChanged(List<Address> nodes) {
    /** Copies the list. */
    public NodesChanged {
      nodes = List.copyOf(nodes);
    }
  }
}
