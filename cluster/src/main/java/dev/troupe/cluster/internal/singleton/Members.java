package dev.troupe.cluster.internal.singleton;

import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The members with the singleton's role that are not removed, oldest first, as one actor last
 * heard of them. Owned by one actor: not thread-safe.
 */
final class Members {
  private final Optional<String> role;
  private final List<Member> members = new ArrayList<>(); // oldest first
  private boolean known;

  Members(Optional<String> role) {
    this.role = role;
  }

  /** @return whether a first state has been heard */
  boolean known() {
    return known;
  }

  /**
   * @param message a message from the membership
   * @return whether it was one (and was applied)
   */
  boolean apply(Object message) {
    if (message instanceof CurrentClusterState s) {
      members.clear();
      for (Member m : s.members()) {
        if (m.status() != MemberStatus.REMOVED && hasRole(m)) {
          members.add(m);
        }
      }
      members.sort(Member.ageOrdering());
      known = true;
      return true;
    }
    if (message instanceof ClusterEvent.MemberEvent e) {
      Member m = e.member();
      members.remove(m); // by incarnation, whatever the status it had
      if (m.status() != MemberStatus.REMOVED && hasRole(m)) {
        members.add(m);
        members.sort(Member.ageOrdering());
      }
      return true;
    }
    return false;
  }

  private boolean hasRole(Member m) {
    return role.isEmpty() || m.hasRole(role.get());
  }

  /** @return the oldest member with the role that is up: where the singleton belongs */
  Optional<Member> owner() {
    for (Member m : members) {
      if (m.status() == MemberStatus.UP) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /**
   * @param node a node
   * @return it as a member with the role, unless removed
   */
  Optional<Member> member(UniqueAddress node) {
    for (Member m : members) {
      if (m.uniqueAddress().equals(node)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /**
   * @param node a member
   * @return the members with the role, not removed, older than {@code node}: the only ones that
   *     may run the singleton while {@code node} is the oldest up member
   */
  List<Member> olderThan(UniqueAddress node) {
    List<Member> older = new ArrayList<>();
    for (Member m : members) {
      if (m.uniqueAddress().equals(node)) {
        return older;
      }
      older.add(m);
    }
    return older;
  }

  @Override
  public String toString() {
    return members.toString();
  }
}
