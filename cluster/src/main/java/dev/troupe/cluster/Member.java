package dev.troupe.cluster;

import dev.troupe.actor.Address;
import java.util.Comparator;
import java.util.Objects;
import java.util.Set;

/**
 * A node of the cluster as one node sees it: its incarnation, status and roles.
 *
 * <p>Members are ordered oldest first ({@link #ageOrdering()}): by the order in which the membership
 * engine admitted them, which every node sees the same. Two members are equal when they are the same
 * incarnation ({@link #uniqueAddress()}), whatever their status.
 *
 * <p>Members are made by the cluster; the constructor is public so that tests of code that handles
 * cluster events can build them.
 */
public final class Member {
  private static final Comparator<Member> AGE =
      Comparator.comparingLong((Member m) -> m.upNumber).thenComparing(m -> m.uniqueAddress);

  private final UniqueAddress uniqueAddress;
  private final MemberStatus status;
  private final Set<String> roles;
  private final long upNumber;

  /**
   * @param uniqueAddress the member's incarnation
   * @param status its status
   * @param roles its roles ({@code troupe.cluster.roles} on that node)
   * @param upNumber its age rank on this node: smaller is older. Only the order of two members'
   *     numbers means something, and only on the node that made them; it is not part of equality
   */
  public Member(UniqueAddress uniqueAddress, MemberStatus status, Set<String> roles, long upNumber) {
    this.uniqueAddress = Objects.requireNonNull(uniqueAddress, "uniqueAddress");
    this.status = Objects.requireNonNull(status, "status");
    this.roles = Set.copyOf(roles);
    this.upNumber = upNumber;
  }

  /** @return the node's address, {@code troupe://system@host:port} */
  public Address address() {
    return uniqueAddress.address();
  }

  /** @return the node's incarnation: its address and the uid it drew when it started */
  public UniqueAddress uniqueAddress() {
    return uniqueAddress;
  }

  /** @return the member's status as this node sees it */
  public MemberStatus status() {
    return status;
  }

  /** @return the roles the member joined with */
  public Set<String> roles() {
    return roles;
  }

  /**
   * @param role a role name
   * @return whether the member joined with that role
   */
  public boolean hasRole(String role) {
    return roles.contains(role);
  }

  /**
   * @param other another member, as the same node sees it
   * @return whether this member was admitted to the cluster before {@code other}
   */
  public boolean isOlderThan(Member other) {
    return AGE.compare(this, other) < 0;
  }

  /**
   * @param newStatus the status
   * @return this member with {@code newStatus}
   */
  public Member withStatus(MemberStatus newStatus) {
    return newStatus == status ? this : new Member(uniqueAddress, newStatus, roles, upNumber);
  }

  /** @return the order of {@link #isOlderThan}: oldest first, ties (never in one view) by unique address */
  public static Comparator<Member> ageOrdering() {
    return AGE;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Member m && uniqueAddress.equals(m.uniqueAddress);
  }

  @Override
  public int hashCode() {
    return uniqueAddress.hashCode();
  }

  /** @return e.g. {@code Member(troupe://sys@127.0.0.1:2552#42, UP, roles [worker])} */
  @Override
  public String toString() {
    return "Member(" + uniqueAddress + ", " + status + ", roles " + roles.stream().sorted().toList() + ")";
  }
}
