package dev.troupe.cluster.internal.core;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.runtime.spi.RouteeNodes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cluster's answer to cluster-aware routers ({@code cluster.enabled = on} in a deployment
 * section): which members may hold a router's routees. A member is eligible when it is {@code Up},
 * not unreachable, has every role of the router's {@code use-roles}, and is not this node unless
 * the router allows local routees. The runtime's router does the rest (how many routees where).
 *
 * <p>The follower each router starts as its child subscribes to member and reachability events and
 * tells the router the eligible list after each change to it; a member that becomes unreachable
 * leaves the list at once (its routees are dropped before downing removes it), and comes back if
 * it becomes reachable again.
 */
final class ClusterRouteeNodes implements RouteeNodes {
  private static final Comparator<Address> ADDRESS_ORDER = Comparator.comparing(Address::toString);

  private final ClusterProvider provider;

  ClusterRouteeNodes(ClusterProvider provider) {
    this.provider = provider;
  }

  @Override
  public List<Address> current(Set<String> useRoles, boolean includeSelf) {
    ClusterImpl cluster = (ClusterImpl) provider.cluster();
    CurrentClusterState s = cluster.state();
    Set<UniqueAddress> unreachable = new HashSet<>();
    for (Member m : s.unreachable()) {
      unreachable.add(m.uniqueAddress());
    }
    return eligible(s.members(), unreachable, useRoles, includeSelf ? null : cluster.selfAddress());
  }

  @Override
  public Props follower(Set<String> useRoles, boolean includeSelf) {
    ClusterImpl cluster = (ClusterImpl) provider.cluster();
    Set<String> roles = Set.copyOf(useRoles);
    Address excluded = includeSelf ? null : cluster.selfAddress();
    return Props.create(Follower.class, () -> new Follower(cluster, roles, excluded));
  }

  /**
   * @param members the members
   * @param unreachable the unreachable ones
   * @param useRoles roles a member must all have
   * @param excluded this node's address when it may not hold routees, else null
   * @return the eligible members' addresses in address order
   */
  static List<Address> eligible(
      Collection<Member> members, Set<UniqueAddress> unreachable, Set<String> useRoles, Address excluded) {
    List<Address> out = new ArrayList<>();
    for (Member m : members) {
      if (m.status() == MemberStatus.UP && !unreachable.contains(m.uniqueAddress())
          && m.roles().containsAll(useRoles) && !m.address().equals(excluded)) {
        out.add(m.address());
      }
    }
    out.sort(ADDRESS_ORDER);
    return out;
  }

  /** A router's child: keeps the members and tells its parent the eligible list when it changes. */
  static final class Follower extends AbstractActor {
    private final ClusterImpl cluster;
    private final Set<String> useRoles;
    private final Address excluded;
    private final Map<UniqueAddress, Member> members = new HashMap<>();
    private final Set<UniqueAddress> unreachable = new HashSet<>();
    private List<Address> told;

    Follower(ClusterImpl cluster, Set<String> useRoles, Address excluded) {
      this.cluster = cluster;
      this.useRoles = useRoles;
      this.excluded = excluded;
    }

    @Override
    public void preStart() {
      cluster.subscribe(getSelf(), ClusterEvent.initialStateAsSnapshot(), ClusterEvent.MemberEvent.class,
          ClusterEvent.ReachabilityEvent.class);
    }

    @Override
    public void postStop() {
      cluster.unsubscribe(getSelf());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(CurrentClusterState.class, s -> {
            members.clear();
            unreachable.clear();
            for (Member m : s.members()) {
              members.put(m.uniqueAddress(), m);
            }
            for (Member m : s.unreachable()) {
              unreachable.add(m.uniqueAddress());
            }
            update();
          })
          .match(ClusterEvent.MemberRemoved.class, r -> {
            members.remove(r.member().uniqueAddress());
            unreachable.remove(r.member().uniqueAddress());
            update();
          })
          .match(ClusterEvent.MemberEvent.class, e -> {
            members.put(e.member().uniqueAddress(), e.member());
            update();
          })
          .match(ClusterEvent.UnreachableMember.class, u -> {
            unreachable.add(u.member().uniqueAddress());
            update();
          })
          .match(ClusterEvent.ReachableMember.class, r -> {
            unreachable.remove(r.member().uniqueAddress());
            update();
          })
          .build();
    }

    private void update() {
      List<Address> now = eligible(members.values(), unreachable, useRoles, excluded);
      if (!now.equals(told)) {
        told = now;
        getContext().getParent().tell(new NodesChanged(now), getSelf());
      }
    }
  }
}
