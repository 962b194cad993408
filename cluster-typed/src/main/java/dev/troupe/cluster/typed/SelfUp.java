package dev.troupe.cluster.typed;

import dev.troupe.cluster.CurrentClusterState;
import java.util.Objects;

/**
 * This member is up: sent once to each subscriber of {@code SelfUp.class}, at once if the member
 * already was.
 *
 * @param currentClusterState the cluster as this member saw it then
 */
public record SelfUp(CurrentClusterState currentClusterState) {
  /** @param currentClusterState not null */
  public SelfUp {
    Objects.requireNonNull(currentClusterState, "currentClusterState");
  }
}
