package dev.troupe.cluster.internal.membership;

import dev.troupe.cluster.Member;
import dev.troupe.cluster.UniqueAddress;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a downing strategy decides on: the members that count, as the last stable view holds them,
 * and which of them this node reaches (its side of a partition; this node is always on it).
 *
 * @param members the counted members, oldest first ({@link Member#ageOrdering()}); never empty when
 *     a strategy is asked
 * @param reachable the unique addresses of the counted members on this node's side
 */
record Partition(List<Member> members, Set<UniqueAddress> reachable) {
  Partition {
    members = members.stream().sorted(Member.ageOrdering()).toList();
    reachable = Set.copyOf(reachable);
    for (UniqueAddress r : reachable) {
      if (members.stream().noneMatch(m -> m.uniqueAddress().equals(r))) {
        throw new IllegalArgumentException("reachable " + r + " is not a counted member");
      }
    }
  }

  /** @return how many counted members there are */
  int size() {
    return members.size();
  }

  /** @return how many counted members this side has */
  int reachableCount() {
    return reachable.size();
  }

  /** @return how many counted members are on the other side(s) */
  int unreachableCount() {
    return members.size() - reachable.size();
  }

  /** @return whether the member is on this side */
  boolean isReachable(Member m) {
    return reachable.contains(m.uniqueAddress());
  }

  /** @return the oldest counted member */
  Member oldest() {
    return members.get(0);
  }

  /** @return the counted member with the lowest unique address (the tie-breaker of keep-majority) */
  UniqueAddress lowestAddress() {
    return members.stream().map(Member::uniqueAddress).min(UniqueAddress::compareTo).orElseThrow();
  }

  static Partition of(List<Member> members, Set<UniqueAddress> reachable) {
    return new Partition(Objects.requireNonNull(members, "members"), reachable);
  }
}
