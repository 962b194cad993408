package dev.troupe.cluster;

import dev.troupe.actor.Address;
import java.util.Objects;
import java.util.Optional;

/**
 * What a subscriber hears about the cluster. Every node hears a member's changes in the same order:
 * a member that leaves gracefully is {@link MemberLeft} then {@link MemberExited} then {@link
 * MemberRemoved} (previous status {@link MemberStatus#EXITING}); a member that goes without leaving
 * is {@link UnreachableMember} then {@link MemberDowned} then {@link MemberRemoved} (previous status
 * {@link MemberStatus#DOWN}).
 */
public sealed interface ClusterEvent
    permits ClusterEvent.MemberEvent,
        ClusterEvent.ReachabilityEvent,
        ClusterEvent.LeaderChanged,
        CurrentClusterState {

  /**
   * @return the mode in which a new subscriber first hears the current state as the events that
   *     would have led to it ({@link MemberUp} for each member that is up, and so on)
   */
  static SubscriptionInitialStateMode initialStateAsEvents() {
    return SubscriptionInitialStateMode.INITIAL_STATE_AS_EVENTS;
  }

  /** @return the mode in which a new subscriber first hears the current state as one {@link CurrentClusterState} */
  static SubscriptionInitialStateMode initialStateAsSnapshot() {
    return SubscriptionInitialStateMode.INITIAL_STATE_AS_SNAPSHOT;
  }

  /** How a new subscriber first hears the state the cluster is already in. */
  enum SubscriptionInitialStateMode {
    /** As the events that would have led to it. */
    INITIAL_STATE_AS_EVENTS,
    /** As one {@link CurrentClusterState}. */
    INITIAL_STATE_AS_SNAPSHOT
  }

  /** A member's status changed; {@link #member()} carries the new one. */
  sealed interface MemberEvent extends ClusterEvent
      permits MemberJoined, MemberUp, MemberLeft, MemberExited, MemberDowned, MemberRemoved {
    /** @return the member, with its new status */
    Member member();
  }

  /** A node's reachability changed as this node sees it. */
  sealed interface ReachabilityEvent extends ClusterEvent permits UnreachableMember, ReachableMember {
    /** @return the member */
    Member member();
  }

  /** @param member the member, {@link MemberStatus#JOINING} */
  record MemberJoined(Member member) implements MemberEvent {
    public MemberJoined {
      Objects.requireNonNull(member, "member");
    }
  }

  /** @param member the member, {@link MemberStatus#UP} */
  record MemberUp(Member member) implements MemberEvent {
    public MemberUp {
      Objects.requireNonNull(member, "member");
    }
  }

  /** @param member the member, {@link MemberStatus#LEAVING} */
  record MemberLeft(Member member) implements MemberEvent {
    public MemberLeft {
      Objects.requireNonNull(member, "member");
    }
  }

  /** @param member the member, {@link MemberStatus#EXITING} */
  record MemberExited(Member member) implements MemberEvent {
    public MemberExited {
      Objects.requireNonNull(member, "member");
    }
  }

  /** @param member the member, {@link MemberStatus#DOWN} */
  record MemberDowned(Member member) implements MemberEvent {
    public MemberDowned {
      Objects.requireNonNull(member, "member");
    }
  }

  /**
   * The member is out for good; its incarnation never comes back.
   *
   * @param member the member, {@link MemberStatus#REMOVED}
   * @param previousStatus {@link MemberStatus#EXITING} after a graceful leave, {@link
   *     MemberStatus#DOWN} after downing
   */
  record MemberRemoved(Member member, MemberStatus previousStatus) implements MemberEvent {
    public MemberRemoved {
      Objects.requireNonNull(member, "member");
      Objects.requireNonNull(previousStatus, "previousStatus");
    }
  }

  /** @param member a member this node can no longer reach */
  record UnreachableMember(Member member) implements ReachabilityEvent {
    public UnreachableMember {
      Objects.requireNonNull(member, "member");
    }
  }

  /** @param member a member this node reaches again */
  record ReachableMember(Member member) implements ReachabilityEvent {
    public ReachableMember {
      Objects.requireNonNull(member, "member");
    }
  }

  /** @param leader the new leader's address, empty when there is none (no member is up) */
  record LeaderChanged(Optional<Address> leader) implements ClusterEvent {
    public LeaderChanged {
      Objects.requireNonNull(leader, "leader");
    }
  }
}
