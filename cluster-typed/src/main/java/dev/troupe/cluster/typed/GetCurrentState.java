package dev.troupe.cluster.typed;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.cluster.CurrentClusterState;
import java.util.Objects;

/**
 * Asks for the cluster as this member sees it now.
 *
 * @param recipient who gets the {@link CurrentClusterState}
 */
public record GetCurrentState(ActorRef<CurrentClusterState> recipient) implements ClusterStateSubscription {
  /** @param recipient not null */
  public GetCurrentState {
    Objects.requireNonNull(recipient, "recipient");
  }
}
