package dev.troupe.cluster.sharding;

import dev.troupe.actor.Address;
import java.util.Objects;
import java.util.Set;

/**
 * The messages and helpers of a shard region: the actor {@link ClusterSharding#start} returns. Send
 * it the messages for the entities of its type; it finds each message's entity id and shard id with
 * a {@link MessageExtractor}, and delivers the message to the entity on whichever member hosts its
 * shard (creating the entity on its first message).
 *
 * <p>Queries: send {@link #getCurrentRegionsInstance()} to get {@link CurrentRegions}, or {@link
 * #getShardRegionStateInstance()} to get this region's {@link CurrentShardRegionState}.
 */
public final class ShardRegion {
  private ShardRegion() {}

  /**
   * How a region reads the messages sent to it. The three functions are called on the region's and
   * the shard's threads for every message; they must be pure, cheap, and agree on every node.
   */
  public interface MessageExtractor {
    /**
     * @param message a message sent to the region
     * @return the id of the entity it is for; {@code null} if the message is not for an entity of
     *     this type (it is then dropped as unhandled)
     */
    String entityId(Object message);

    /**
     * @param message a message sent to the region
     * @return what the entity receives (often {@code message} itself, or its payload)
     */
    Object entityMessage(Object message);

    /**
     * @param message a message sent to the region (also {@link StartEntity})
     * @return the id of the shard the entity belongs to: the same for every message to one entity
     */
    String shardId(Object message);
  }

  /**
   * A {@link MessageExtractor} that spreads entities over {@code maxNumberOfShards} shards by the
   * hash code of their id; implement {@link #entityId} only (and {@link #entityMessage} when the
   * entity receives something other than the message). Understands {@link StartEntity}.
   */
  public abstract static class HashCodeMessageExtractor implements MessageExtractor {
    private final int maxNumberOfShards;
    private final String[] shardIds;

    /**
     * @param maxNumberOfShards the number of shards, at least 1; the same on every node (e.g. {@link
     *     ClusterShardingSettings#numberOfShards()})
     */
    protected HashCodeMessageExtractor(int maxNumberOfShards) {
      if (maxNumberOfShards < 1) {
        throw new IllegalArgumentException("maxNumberOfShards must be >= 1, was " + maxNumberOfShards);
      }
      this.maxNumberOfShards = maxNumberOfShards;
      this.shardIds = new String[maxNumberOfShards];
      for (int i = 0; i < maxNumberOfShards; i++) {
        shardIds[i] = Integer.toString(i);
      }
    }

    /** @return the number of shards */
    public final int maxNumberOfShards() {
      return maxNumberOfShards;
    }

    /** Returns the message itself; override when the entity receives something else. */
    @Override
    public Object entityMessage(Object message) {
      return message;
    }

    /**
     * The shard of {@code entityId(message)}: its hash code modulo the number of shards; {@code
     * null} when the message has no entity id.
     */
    @Override
    public String shardId(Object message) {
      String id = message instanceof StartEntity s ? s.entityId() : entityId(message);
      return id == null ? null : shardIds[Math.floorMod(id.hashCode(), maxNumberOfShards)];
    }
  }

  /**
   * Sent by an entity to its parent (the shard) to be stopped: {@code
   * getContext().getParent().tell(new ShardRegion.Passivate(stopMessage), getSelf())}. The shard
   * sends the entity {@code stopMessage} and holds the messages that arrive for it meanwhile; once it
   * has stopped, those messages start it again.
   *
   * @param stopMessage what the entity receives to stop itself (e.g. {@code PoisonPill})
   */
  public record Passivate(Object stopMessage) {
    public Passivate {
      Objects.requireNonNull(stopMessage, "stopMessage");
    }
  }

  /**
   * Starts an entity without a message for it (e.g. to warm it up); the extractor's {@code shardId}
   * must understand it ({@link HashCodeMessageExtractor} does, and so must {@code entityId}
   * in a custom extractor). The entity does not receive it.
   *
   * @param entityId the entity's id
   */
  public record StartEntity(String entityId) {
    public StartEntity {
      Objects.requireNonNull(entityId, "entityId");
    }
  }

  /** The query for {@link CurrentRegions}. */
  public static final class GetCurrentRegions {
    static final GetCurrentRegions INSTANCE = new GetCurrentRegions();

    private GetCurrentRegions() {}

    @Override
    public String toString() {
      return "GetCurrentRegions";
    }
  }

  /** The query for {@link CurrentShardRegionState}. */
  public static final class GetShardRegionState {
    static final GetShardRegionState INSTANCE = new GetShardRegionState();

    private GetShardRegionState() {}

    @Override
    public String toString() {
      return "GetShardRegionState";
    }
  }

  /** @return the query a region answers with {@link CurrentRegions} */
  public static GetCurrentRegions getCurrentRegionsInstance() {
    return GetCurrentRegions.INSTANCE;
  }

  /** @return the query a region answers with {@link CurrentShardRegionState} */
  public static GetShardRegionState getShardRegionStateInstance() {
    return GetShardRegionState.INSTANCE;
  }

  /**
   * The members that host regions of this type, as the asked region currently sees them.
   *
   * @param regions their addresses
   */
  public record CurrentRegions(Set<Address> regions) {
    public CurrentRegions {
      regions = Set.copyOf(regions);
    }

    /** @return {@link #regions()} */
    public Set<Address> getRegions() {
      return regions;
    }
  }

  /**
   * The shards the asked region hosts and their live entities.
   *
   * @param shards one state per hosted shard
   */
  public record CurrentShardRegionState(Set<ShardState> shards) {
    public CurrentShardRegionState {
      shards = Set.copyOf(shards);
    }

    /** @return {@link #shards()} */
    public Set<ShardState> getShards() {
      return shards;
    }
  }

  /**
   * One hosted shard.
   *
   * @param shardId its id
   * @param entityIds the ids of its live entities
   */
  public record ShardState(String shardId, Set<String> entityIds) {
    public ShardState {
      Objects.requireNonNull(shardId, "shardId");
      entityIds = Set.copyOf(entityIds);
    }

    /** @return {@link #entityIds()} */
    public Set<String> getEntityIds() {
      return entityIds;
    }
  }
}
