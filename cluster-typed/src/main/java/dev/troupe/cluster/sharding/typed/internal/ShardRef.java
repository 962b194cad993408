package dev.troupe.cluster.sharding.typed.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.cluster.sharding.typed.ClusterSharding;
import java.util.Objects;

/**
 * An entity's typed view of its shard: a {@link ClusterSharding.Passivate} becomes the shard's own
 * {@link ShardRegion.Passivate} with the type's stop message, sent as from the entity (the shard
 * knows its entities by their refs). Reached by path: an entity and its shard share one system, and
 * a passivation is rare. Not for other nodes: it has no classic ref to send.
 */
public final class ShardRef implements ActorRef<ClusterSharding.ShardCommand> {
  private final dev.troupe.actor.ActorSystem system;
  private final ActorPath shard;
  private final Object stopMessage;

  /**
   * @param system the entity's system
   * @param shard the path of the entity's shard (its parent)
   * @param stopMessage what a passivated entity is told
   */
  public ShardRef(dev.troupe.actor.ActorSystem system, ActorPath shard, Object stopMessage) {
    this.system = Objects.requireNonNull(system, "system");
    this.shard = Objects.requireNonNull(shard, "shard");
    this.stopMessage = Objects.requireNonNull(stopMessage, "stopMessage");
  }

  @Override
  public void tell(ClusterSharding.ShardCommand message) {
    Objects.requireNonNull(message, "message");
    if (message instanceof ClusterSharding.Passivate<?> p) {
      system.actorSelection(shard).tell(new ShardRegion.Passivate(stopMessage), Adapter.toClassic(p.entity()));
    } else {
      throw new IllegalArgumentException("not a shard command Troupe knows: " + message);
    }
  }

  @Override
  public ActorPath path() {
    return shard;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ShardRef r && r.shard.equals(shard);
  }

  @Override
  public int hashCode() {
    return shard.hashCode();
  }

  @Override
  public String toString() {
    return "Shard(" + shard + ")";
  }
}
