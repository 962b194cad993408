package dev.troupe.cluster.spi;

import java.util.List;
import java.util.Objects;

/**
 * What an engine holds at one moment.
 *
 * @param version increases with each view this engine reports
 * @param members the members, oldest first (the order in which the engine admitted them); every
 *     node of one group gets the same order for the same view
 * @param healed true when this view joins groups that the engine had seen split (a partition healed)
 */
public record MembershipView(long version, List<EngineMember> members, boolean healed) {
  public MembershipView {
    members = List.copyOf(Objects.requireNonNull(members, "members"));
  }
}
