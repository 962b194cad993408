package dev.troupe.cluster.sharding.typed;

import dev.troupe.actor.WrappedMessage;
import java.util.Objects;

/**
 * A message for one entity, as the region of its type takes it: the entity's id and what the entity
 * receives. {@link EntityRef#tell} wraps its messages in it; send it to the ref {@link
 * ClusterSharding#init} returns to reach an entity without an {@code EntityRef}.
 *
 * <p>Between members it is written by the envelope's own serializer (identifier 34): the id, then
 * the message with the serializer bound to its class, so the entity's messages need a serialization
 * binding as any remote message does. It is a {@link WrappedMessage}: a node in untrusted mode
 * refuses an envelope from a peer that carries {@code PoisonPill}, {@code Kill} or a system message.
 *
 * @param entityId the entity's id, not empty
 * @param message what the entity receives
 * @param <M> the entity's protocol
 */
public record ShardingEnvelope<M>(String entityId, M message) implements WrappedMessage {
  /**
   * @param entityId the entity's id, not empty
   * @param message what the entity receives
   * @throws IllegalArgumentException for an empty id
   */
  public ShardingEnvelope {
    Objects.requireNonNull(entityId, "entityId");
    Objects.requireNonNull(message, "message");
    if (entityId.isEmpty()) {
      throw new IllegalArgumentException("an entity id must not be empty");
    }
  }
}
