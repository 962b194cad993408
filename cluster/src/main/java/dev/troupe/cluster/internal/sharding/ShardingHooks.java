package dev.troupe.cluster.internal.sharding;

import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.UniqueAddress;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where {@link dev.troupe.cluster.sharding.ClusterSharding} gets its membership: the {@code Cluster}
 * installs a {@link TopologySource} per actor system when it starts ({@code
 * internal.core.ClusterTopologySource}); {@code ClusterSharding.start} asks it for each type's topology.
 */
public final class ShardingHooks {
  private static final ConcurrentHashMap<ActorSystem, TopologySource> SOURCES = new ConcurrentHashMap<>();
  // shards each cluster node handed over, for the meters; kept while its source is installed
  private static final ConcurrentHashMap<ActorSystem, LongAdder> HAND_OFFS = new ConcurrentHashMap<>();

  private ShardingHooks() {}

  /** What the cluster wiring provides to sharding on one node. */
  public interface TopologySource {
    /** @return this node's incarnation (how this node's region finds itself in the views) */
    UniqueAddress selfAddress();

    /**
     * @param typeName the entity type
     * @param role the role whose members host its regions; empty = every member
     * @return its topology: members with that role that run a region of the type (at {@link
     *     dev.troupe.cluster.sharding.ClusterSharding#regionPath})
     */
    ShardingTopology topology(String typeName, Optional<String> role);
  }

  /**
   * Installs the source of {@code system}; removed when the system terminates.
   *
   * @param system an actor system
   * @param source its topologies
   */
  public static void install(ActorSystem system, TopologySource source) {
    Objects.requireNonNull(source, "source");
    SOURCES.put(system, source);
    HAND_OFFS.putIfAbsent(system, new LongAdder());
    system.getWhenTerminated().whenComplete((t, e) -> {
      SOURCES.remove(system, source);
      HAND_OFFS.remove(system);
    });
  }

  /**
   * A region of {@code system} hands a shard it hosted over to another member (a new view placed
   * it elsewhere). Counted only on a system with an installed source (a cluster node).
   *
   * @param system the region's system
   */
  public static void handedOff(ActorSystem system) {
    LongAdder n = HAND_OFFS.get(system);
    if (n != null) {
      n.increment();
    }
  }

  /**
   * @param system an actor system
   * @return the shards its regions handed over to other members so far (0 for a system that is no
   *     cluster node)
   */
  public static long handOffs(ActorSystem system) {
    LongAdder n = HAND_OFFS.get(system);
    return n == null ? 0 : n.sum();
  }

  /**
   * @param system an actor system
   * @return its installed source, if any
   */
  public static Optional<TopologySource> source(ActorSystem system) {
    return Optional.ofNullable(SOURCES.get(system));
  }
}
