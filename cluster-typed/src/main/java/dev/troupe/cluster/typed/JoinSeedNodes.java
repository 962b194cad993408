package dev.troupe.cluster.typed;

import dev.troupe.actor.Address;
import java.util.List;
import java.util.Objects;

/**
 * Joins through the first of the seed nodes that answers; when this member is the first seed and
 * no other answers within {@code troupe.cluster.seed-node-timeout}, it founds the cluster.
 *
 * @param seedNodes remote addresses of this system's name, at least one
 */
public record JoinSeedNodes(List<Address> seedNodes) implements ClusterCommand {
  /** @param seedNodes not null, not empty, no null element (copied) */
  public JoinSeedNodes {
    Objects.requireNonNull(seedNodes, "seedNodes");
    seedNodes = List.copyOf(seedNodes);
    if (seedNodes.isEmpty()) {
      throw new IllegalArgumentException("JoinSeedNodes needs at least one seed");
    }
  }
}
