package dev.troupe.cluster.internal.core;

import dev.troupe.actor.AbstractActorWithTimers;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.sharding.RegionActor;
import dev.troupe.cluster.internal.sharding.ShardingHooks;
import dev.troupe.cluster.internal.sharding.ShardingTopology;
import dev.troupe.cluster.sharding.ClusterSharding;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sharding's membership on a clustered node: for each entity type a feeder actor ({@code
 * /user/troupe-sharding-topology-<type>}) subscribed to the cluster's member events turns them into
 * {@link ShardingTopology.View}s — the members with the type's role that are {@code UP} (or leaving,
 * marked {@code leaving}), oldest first, each with the ref of its region at its address.
 *
 * <p>A member that leaves gracefully stays in the views, {@code leaving}, after its removal until its
 * region answers {@link RegionActor.WhenHandedOver} or {@code troupe.cluster.sharding.hand-over-timeout}
 * passes; a
 * member removed after downing is dropped at once; an unreachable member stays as it is.
 *
 * <p>Versions count the changes this node's feeder saw since it started, so a node that joined
 * later numbers the same views otherwise; the regions' hand-over protocol compares the views' owners
 * between nodes, and versions only within one (see {@link RegionActor}).
 */
final class ClusterTopologySource implements ShardingHooks.TopologySource {
  private final ClusterImpl cluster;
  private final ConcurrentHashMap<String, ShardingTopology> byType = new ConcurrentHashMap<>();
  /** This node's regions (and proxies) subscribed to a topology: what a leave waits for. */
  private final Set<ActorRef> regions = ConcurrentHashMap.newKeySet();
  private volatile Duration handOverBound;

  ClusterTopologySource(ClusterImpl cluster) {
    this.cluster = cluster;
  }

  /** @return this node's regions of every type (proxies included: they answer at once) */
  List<ActorRef> hostingRegions() {
    return List.copyOf(regions);
  }

  /** @return {@code troupe.cluster.sharding.hand-over-timeout}, read once */
  Duration handOverBound() {
    Duration b = handOverBound;
    if (b == null) {
      b = ClusterShardingSettings.create(cluster.system).handOverTimeout();
      handOverBound = b;
    }
    return b;
  }

  @Override
  public UniqueAddress selfAddress() {
    return cluster.self;
  }

  @Override
  public ShardingTopology topology(String typeName, Optional<String> role) {
    return byType.computeIfAbsent(typeName, t -> {
      Duration bound = handOverBound();
      ActorRef feeder = cluster.system.actorOf(
          Props.create(Feeder.class, () -> new Feeder(cluster, t, role, bound)),
          "troupe-sharding-topology-" + URLEncoder.encode(t, StandardCharsets.UTF_8));
      return new ShardingTopology() {
        @Override
        public void subscribe(ActorRef region) {
          regions.add(region);
          feeder.tell(new Subscribe(region), ActorRef.noSender());
        }

        @Override
        public void unsubscribe(ActorRef region) {
          regions.remove(region);
          feeder.tell(new Unsubscribe(region), ActorRef.noSender());
        }
      };
    });
  }

  record Subscribe(ActorRef region) {}

  record Unsubscribe(ActorRef region) {}

  /** A leaving member's bound passed: drop it even without its region's answer. */
  record LeaveBound(UniqueAddress node) {}

  /** Keeps the members of one type and publishes a view after every change that alters it. */
  static final class Feeder extends AbstractActorWithTimers {
    private final ClusterImpl cluster;
    private final String typeName;
    private final Optional<String> role;
    private final Duration bound;
    private final Set<ActorRef> subscribers = new LinkedHashSet<>();
    /** The members as this node sees them, by incarnation (removed ones still waiting for their hand-over kept). */
    private final Map<UniqueAddress, Member> members = new HashMap<>();
    /** Removed gracefully, kept (leaving) until their region answered or the bound passed. */
    private final Set<UniqueAddress> draining = new HashSet<>();
    /** Leaving members whose region was asked already. */
    private final Set<UniqueAddress> asked = new HashSet<>();
    /** Leaving members whose region answered that it hosts nothing any more. */
    private final Set<UniqueAddress> handedOver = new HashSet<>();
    private ShardingTopology.View current;

    Feeder(ClusterImpl cluster, String typeName, Optional<String> role, Duration bound) {
      this.cluster = cluster;
      this.typeName = typeName;
      this.role = role;
      this.bound = bound;
    }

    @Override
    public void preStart() {
      cluster.subscribe(getSelf(), ClusterEvent.initialStateAsSnapshot(), ClusterEvent.MemberEvent.class);
    }

    @Override
    public void postStop() {
      cluster.unsubscribe(getSelf());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Subscribe.class, s -> {
            if (subscribers.add(s.region()) && current != null) {
              s.region().tell(current, getSelf());
            }
          })
          .match(Unsubscribe.class, u -> subscribers.remove(u.region()))
          .match(CurrentClusterState.class, s -> {
            members.clear();
            for (Member m : s.members()) {
              members.put(m.uniqueAddress(), m);
            }
            update();
          })
          .match(ClusterEvent.MemberRemoved.class, r -> {
            UniqueAddress node = r.member().uniqueAddress();
            if (r.previousStatus() == MemberStatus.EXITING && members.containsKey(node) && hasRole(r.member())
                && !handedOver.contains(node)) {
              draining.add(node);
              askHandedOver(members.get(node));
            } else {
              members.remove(node);
            }
            update();
          })
          .match(ClusterEvent.MemberEvent.class, e -> {
            members.put(e.member().uniqueAddress(), e.member());
            update();
          })
          .match(RegionActor.HandedOver.class, h -> {
            Address from = getSender().path().address();
            for (UniqueAddress node : new ArrayList<>(asked)) {
              if (node.address().equals(from)) {
                handedOver.add(node);
                if (draining.contains(node)) {
                  drop(node);
                }
              }
            }
          })
          .match(LeaveBound.class, b -> {
            if (draining.contains(b.node())) {
              drop(b.node());
            }
          })
          .build();
    }

    private void drop(UniqueAddress node) {
      draining.remove(node);
      members.remove(node);
      update();
    }

    private boolean hasRole(Member m) {
      return role.map(m::hasRole).orElse(true);
    }

    private static boolean leaving(MemberStatus s) {
      return s == MemberStatus.LEAVING || s == MemberStatus.EXITING;
    }

    private void askHandedOver(Member m) {
      if (asked.add(m.uniqueAddress())) {
        regionOf(m.uniqueAddress()).tell(RegionActor.WhenHandedOver.INSTANCE, getSelf());
        getTimers().startSingleTimer(new LeaveBound(m.uniqueAddress()), new LeaveBound(m.uniqueAddress()), bound);
      }
    }

    private ActorRef regionOf(UniqueAddress node) {
      return cluster.provider.resolveActorRef(ActorPath.root(node.address()).descendant(
          ClusterSharding.regionPath(typeName).substring(1)));
    }

    /** Publishes a new view if the members with regions changed. */
    private void update() {
      List<Member> sorted = new ArrayList<>(members.values());
      sorted.sort(Member.ageOrdering());
      List<ShardingTopology.RegionMember> view = new ArrayList<>();
      for (Member m : sorted) {
        if (!hasRole(m)) {
          continue;
        }
        boolean drained = draining.contains(m.uniqueAddress());
        if (m.status() == MemberStatus.UP || leaving(m.status()) || drained) {
          boolean isLeaving = drained || leaving(m.status());
          if (isLeaving) {
            askHandedOver(m);
          }
          view.add(new ShardingTopology.RegionMember(m.uniqueAddress(), regionOf(m.uniqueAddress()), isLeaving));
        }
      }
      if (current != null && current.members().equals(view)) {
        return;
      }
      current = new ShardingTopology.View(current == null ? 1 : current.version() + 1, view);
      for (ActorRef r : subscribers) {
        r.tell(current, getSelf());
      }
    }
  }
}
