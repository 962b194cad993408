package dev.troupe.bench.sharding;

import dev.troupe.bench.common.RemoteMessages;

/**
 * Messages of {@code ShardedPingPong} and {@code ShardHandOver}. Those that cross between nodes
 * implement {@link RemoteMessages.Wire}, bound to each framework's Jackson CBOR serializer.
 */
public final class ShardedMessages {
  /** Shards of the benchmarks' entity type (both frameworks, both extractors). */
  public static final int SHARDS = 100;

  private ShardedMessages() {}

  /**
   * A ping for entity {@code entityId}, through a shard region.
   *
   * @param entityId the entity
   * @param sentAt the pinger's {@link System#nanoTime()} at the send
   * @param payload {@value RemoteMessages#PAYLOAD_BYTES} bytes
   */
  public record ShardedPing(String entityId, long sentAt, byte[] payload) implements RemoteMessages.Wire {}

  /**
   * Asks entity {@code entityId} where it lives; answered with a {@link Where}.
   *
   * @param entityId the entity
   */
  public record WhereAreYou(String entityId) implements RemoteMessages.Wire {}

  /**
   * The answer to {@link WhereAreYou}.
   *
   * @param entityId the entity
   * @param host its node's address
   */
  public record Where(String entityId, String host) implements RemoteMessages.Wire {}

  /**
   * @param message a message of these benchmarks
   * @return its entity id, or null
   */
  public static String entityId(Object message) {
    if (message instanceof ShardedPing p) {
      return p.entityId();
    }
    return message instanceof WhereAreYou w ? w.entityId() : null;
  }

  /**
   * @param entityId an entity id
   * @return its shard: the same function on both frameworks
   */
  public static String shardId(String entityId) {
    return shardId(entityId, SHARDS);
  }

  /**
   * @param entityId an entity id
   * @param shards the number of shards of the type
   * @return its shard among {@code shards}: the same function on both frameworks
   */
  public static String shardId(String entityId, int shards) {
    return Integer.toString(Math.floorMod(entityId.hashCode(), shards));
  }
}
