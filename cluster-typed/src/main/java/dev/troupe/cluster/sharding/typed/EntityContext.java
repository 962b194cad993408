package dev.troupe.cluster.sharding.typed;

import dev.troupe.actor.typed.ActorRef;
import java.util.Objects;

/**
 * What the factory of an entity's behaviour ({@link Entity#of}) gets: the entity's type and id, and
 * its shard, to which the entity sends {@link ClusterSharding.Passivate} to be stopped.
 *
 * @param <M> the entity's protocol
 */
public final class EntityContext<M> {
  private final EntityTypeKey<M> typeKey;
  private final String entityId;
  private final ActorRef<ClusterSharding.ShardCommand> shard;

  /**
   * @param typeKey the entity's type
   * @param entityId its id
   * @param shard its shard
   */
  public EntityContext(EntityTypeKey<M> typeKey, String entityId, ActorRef<ClusterSharding.ShardCommand> shard) {
    this.typeKey = Objects.requireNonNull(typeKey, "typeKey");
    this.entityId = Objects.requireNonNull(entityId, "entityId");
    this.shard = Objects.requireNonNull(shard, "shard");
  }

  /** @return the entity's type */
  public EntityTypeKey<M> getEntityTypeKey() {
    return typeKey;
  }

  /** @return the entity's id */
  public String getEntityId() {
    return entityId;
  }

  /**
   * The entity's shard: {@code getShard().tell(new ClusterSharding.Passivate<>(ctx.getSelf()))}
   * stops the entity (with the type's stop message) without losing the messages that arrive
   * meanwhile: they start it again.
   *
   * @return its shard
   */
  public ActorRef<ClusterSharding.ShardCommand> getShard() {
    return shard;
  }
}
