package dev.troupe.cluster.sharding.typed;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.StatusReply;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * One entity of a sharded type, wherever it lives: messages go through this member's region of the
 * type, which starts the entity on its first message and follows its shard when it moves. Made by
 * {@link ClusterSharding#entityRefFor}; cheap (an id and the region), so make one per use or keep it.
 * Equal to every other ref of the same type and id.
 *
 * <p>Messages from one sender to one entity arrive in the order sent, also across a hand-over.
 * An entity ref is not an {@code ActorRef}: to give an entity's address to another actor, give it
 * the type key and the id.
 *
 * @param <M> the entity's protocol
 */
public final class EntityRef<M> {
  private final EntityTypeKey<M> typeKey;
  private final String entityId;
  private final dev.troupe.actor.ActorRef region;

  EntityRef(EntityTypeKey<M> typeKey, String entityId, dev.troupe.actor.ActorRef region) {
    this.typeKey = typeKey;
    this.entityId = entityId;
    this.region = region;
  }

  /** @return the entity's type */
  public EntityTypeKey<M> getTypeKey() {
    return typeKey;
  }

  /** @return the entity's id */
  public String getEntityId() {
    return entityId;
  }

  /**
   * Sends the entity a message (no sender).
   *
   * @param message the message
   */
  public void tell(M message) {
    region.tell(new ShardingEnvelope<>(entityId, message), dev.troupe.actor.ActorRef.noSender());
  }

  /**
   * Asks the entity: the message is built around a reply-to ref that completes the stage.
   *
   * @param createRequest builds the question around the reply-to ref
   * @param timeout how long to wait
   * @param <Res> the reply's type
   * @return the reply; fails with {@link dev.troupe.pattern.AskTimeoutException} after the timeout
   */
  @SuppressWarnings("unchecked")
  public <Res> CompletionStage<Res> ask(Function<ActorRef<Res>, M> createRequest, Duration timeout) {
    Objects.requireNonNull(createRequest, "createRequest");
    return (CompletionStage<Res>) Patterns.askWithReplyTo(region,
        tmp -> new ShardingEnvelope<>(entityId, createRequest.apply(Adapter.toTyped(tmp))), timeout);
  }

  /**
   * Asks an entity that answers with a {@link StatusReply}: the stage completes with the success's
   * value, or fails with the error's exception.
   *
   * @param createRequest builds the question around the reply-to ref
   * @param timeout how long to wait
   * @param <Res> the success value's type
   * @return the value
   */
  public <Res> CompletionStage<Res> askWithStatus(Function<ActorRef<StatusReply<Res>>, M> createRequest,
      Duration timeout) {
    CompletionStage<StatusReply<Res>> reply = ask(createRequest, timeout);
    return reply.thenCompose(r -> r.isSuccess() ? CompletableFuture.completedFuture(r.getValue())
        : CompletableFuture.failedFuture(r.getError()));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EntityRef<?> r && r.typeKey.equals(typeKey) && r.entityId.equals(entityId);
  }

  @Override
  public int hashCode() {
    return typeKey.hashCode() * 31 + entityId.hashCode();
  }

  @Override
  public String toString() {
    return "EntityRef(" + typeKey.name() + ", " + entityId + ")";
  }
}
