package dev.troupe.cluster;

import dev.troupe.actor.Address;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The cluster as one node sees it at one moment; what a subscriber gets first with {@link
 * ClusterEvent#initialStateAsSnapshot()}.
 *
 * @param members the members that are not removed, oldest first ({@link Member#ageOrdering()})
 * @param unreachable the members this node cannot reach (a subset of {@code members})
 * @param leader the leader's address, empty when no member is up
 */
public record CurrentClusterState(List<Member> members, Set<Member> unreachable, Optional<Address> leader)
    implements ClusterEvent {
  public CurrentClusterState {
    members = members.stream().sorted(Member.ageOrdering()).toList();
    unreachable = Set.copyOf(unreachable);
    Objects.requireNonNull(leader, "leader");
  }

  /**
   * @param address a node's address
   * @return the member at that address, if any
   */
  public Optional<Member> member(Address address) {
    return members.stream().filter(m -> m.address().equals(address)).findFirst();
  }
}
