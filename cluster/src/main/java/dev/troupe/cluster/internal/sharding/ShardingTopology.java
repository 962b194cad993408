package dev.troupe.cluster.internal.sharding;

import dev.troupe.actor.ActorRef;
import dev.troupe.cluster.UniqueAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The membership as sharding sees it, for one entity type: the members that run a region of the
 * type (with the type's role), oldest first, each with its region's ref. The cluster wiring
 * implements it from the agreed membership view; tests feed it by hand ({@link
 * ManualShardingTopology}) so that several regions in one JVM stand for several nodes.
 *
 * <p>What an implementation must provide:
 *
 * <ul>
 *   <li>{@link #subscribe}: the region gets the current {@link View} at once (if there is one) and
 *       every later one, in order, with strictly increasing versions; every region of the type gets
 *       the same sequence of views (some may lag, none may skip to a different history).
 *   <li>A member that leaves gracefully stays in the views, marked {@link RegionMember#leaving()},
 *       until its region has handed its shards over (it reports that to its peers itself); only then,
 *       or when the member is removed after a crash (downed), is it dropped from the views. A member
 *       that is merely unreachable stays as it is: dropping it would let its entities run twice.
 *   <li>Proxy regions subscribe too; they are never members.
 * </ul>
 */
public interface ShardingTopology {
  /**
   * Sends {@code region} the current view now (if there is one) and every later one.
   *
   * @param region the region to tell
   */
  void subscribe(ActorRef region);

  /**
   * Stops telling {@code region}.
   *
   * @param region a subscribed region
   */
  void unsubscribe(ActorRef region);

  /**
   * One member that runs a region of the type.
   *
   * @param node the member's incarnation
   * @param region its region for the type (a remote ref for another node, the region itself for
   *     this one)
   * @param leaving whether it is leaving gracefully: it hosts no shard any more, but its peers wait
   *     for it to stop its entities before they start them
   */
  record RegionMember(UniqueAddress node, ActorRef region, boolean leaving) {
    public RegionMember {
      Objects.requireNonNull(node, "node");
      Objects.requireNonNull(region, "region");
    }
  }

  /**
   * The members with regions of the type, as of one membership version.
   *
   * @param version increases with every change; the same change has the same version everywhere
   * @param members oldest first, each node at most once
   */
  record View(long version, List<RegionMember> members) {
    public View {
      members = List.copyOf(members);
      Set<UniqueAddress> seen = new HashSet<>();
      for (RegionMember m : members) {
        if (!seen.add(m.node())) {
          throw new IllegalArgumentException("member listed twice in view " + version + ": " + m.node());
        }
      }
    }
  }
}
