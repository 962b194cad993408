package dev.troupe.cluster.internal.sharding;

import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.UniqueAddress;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where {@link dev.troupe.cluster.sharding.ClusterSharding} gets its membership: the {@code Cluster}
 * installs a {@link TopologySource} per actor system when it starts ({@code
 * internal.core.ClusterTopologySource}); {@code ClusterSharding.start} asks it for each type's topology.
 */
public final class ShardingHooks {
  private static final ConcurrentHashMap<ActorSystem, TopologySource> SOURCES = new ConcurrentHashMap<>();

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
    system.getWhenTerminated().whenComplete((t, e) -> SOURCES.remove(system, source));
  }

  /**
   * @param system an actor system
   * @return its installed source, if any
   */
  public static Optional<TopologySource> source(ActorSystem system) {
    return Optional.ofNullable(SOURCES.get(system));
  }
}
