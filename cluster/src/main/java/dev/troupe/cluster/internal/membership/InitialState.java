package dev.troupe.cluster.internal.membership;

import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.ClusterEvent.LeaderChanged;
import dev.troupe.cluster.ClusterEvent.MemberDowned;
import dev.troupe.cluster.ClusterEvent.MemberExited;
import dev.troupe.cluster.ClusterEvent.MemberJoined;
import dev.troupe.cluster.ClusterEvent.MemberLeft;
import dev.troupe.cluster.ClusterEvent.MemberUp;
import dev.troupe.cluster.ClusterEvent.UnreachableMember;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link ClusterEvent#initialStateAsEvents()}: the events that tell a new subscriber the state the
 * cluster is in, one per member for its current status (oldest first), then one per unreachable
 * member, then the leader.
 */
final class InitialState {
  private InitialState() {}

  /**
   * @param state the cluster as this node sees it
   * @return the events a new subscriber hears first
   */
  static List<ClusterEvent> asEvents(CurrentClusterState state) {
    List<ClusterEvent> ev = new ArrayList<>();
    for (Member m : state.members()) {
      switch (m.status()) {
        case JOINING -> ev.add(new MemberJoined(m));
        case UP -> ev.add(new MemberUp(m));
        case LEAVING -> ev.add(new MemberLeft(m));
        case EXITING -> ev.add(new MemberExited(m));
        case DOWN -> ev.add(new MemberDowned(m));
        case REMOVED -> { } // never in a state's members
      }
    }
    for (Member m : state.members()) {
      if (state.unreachable().contains(m)) {
        ev.add(new UnreachableMember(m));
      }
    }
    state.leader().ifPresent(l -> ev.add(new LeaderChanged(state.leader())));
    return ev;
  }
}
