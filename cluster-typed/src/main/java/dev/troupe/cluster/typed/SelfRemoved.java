package dev.troupe.cluster.typed;

import dev.troupe.cluster.MemberStatus;
import java.util.Objects;

/**
 * This member was removed from the cluster: sent once to each subscriber of {@code
 * SelfRemoved.class}, at once if it already was.
 *
 * @param previousStatus its status before removal ({@code EXITING} after a leave, {@code DOWN} when
 *     downed)
 */
public record SelfRemoved(MemberStatus previousStatus) {
  /** @param previousStatus not null */
  public SelfRemoved {
    Objects.requireNonNull(previousStatus, "previousStatus");
  }
}
