package dev.troupe.cluster.sharding.typed;

import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.cluster.sharding.typed.internal.PerSystem;
import dev.troupe.cluster.sharding.typed.internal.ShardRef;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Cluster sharding for typed actors: entities of a typed protocol spread over the members, found by
 * their type's key and their id. The cluster's sharding ({@code dev.troupe.cluster.sharding}) runs
 * them: the same regions, shards, hand-overs and settings; this class gives them typed behaviours,
 * {@link EntityRef}s and the {@link ShardingEnvelope} the regions route by.
 *
 * <pre>{@code
 * ClusterSharding sharding = ClusterSharding.get(system);                 // on every member
 * sharding.init(Entity.of(COUNTER, ctx -> Counter.create(ctx.getEntityId())));
 * EntityRef<Counter.Command> apples = sharding.entityRefFor(COUNTER, "apples");
 * apples.tell(new Counter.Increment(1));
 * CompletionStage<Integer> n = apples.ask(Counter.Get::new, Duration.ofSeconds(3));
 * }</pre>
 *
 * <p>The system must be a cluster member ({@code troupe.actor.provider = cluster}); {@link #init}
 * fails with an {@link IllegalStateException} where the cluster has not started.
 */
public final class ClusterSharding {
  private static final PerSystem<ClusterSharding> BY_SYSTEM = new PerSystem<>(ClusterSharding::new);

  private final dev.troupe.actor.ActorSystem system;
  private final Map<String, EntityTypeKey<?>> keys = new HashMap<>(); // guarded by this

  private ClusterSharding(dev.troupe.actor.ActorSystem system) {
    this.system = system;
  }

  /**
   * The typed sharding of {@code system}; the same instance on every call while the system lives.
   *
   * @param system a typed actor system
   * @return its sharding
   */
  public static ClusterSharding get(ActorSystem<?> system) {
    return get(Adapter.toClassic(Objects.requireNonNull(system, "system")));
  }

  /**
   * The typed sharding of a classic system (one that runs typed actors through {@code Adapter}).
   *
   * @param system a classic actor system
   * @return its sharding
   */
  public static ClusterSharding get(dev.troupe.actor.ActorSystem system) {
    return BY_SYSTEM.get(system);
  }

  /**
   * Starts this member's region of the entity's type: it hosts a share of the type's entities when
   * the member has the type's role, and routes every message to the member that hosts its entity.
   * Call it on every member that hosts or reaches the type. A type already started returns its
   * running region.
   *
   * @param entity the entity type
   * @param <M> its protocol
   * @return the region: send it {@link ShardingEnvelope}s (or use {@link #entityRefFor})
   * @throws IllegalStateException if the cluster has not started on this system
   * @throws IllegalArgumentException if a type of the same name but another message class was
   *     started here
   */
  public synchronized <M> ActorRef<ShardingEnvelope<M>> init(Entity<M> entity) {
    Objects.requireNonNull(entity, "entity");
    EntityTypeKey<M> key = entity.typeKey();
    EntityTypeKey<?> running = keys.get(key.name());
    if (running != null && !running.equals(key)) {
      throw new IllegalArgumentException("entity type '" + key.name() + "' runs here with " + running
          + ", not " + key + ": a type's name and message class must match on every call");
    }
    ClusterShardingSettings settings = entity.settings().orElseGet(() -> ClusterShardingSettings.create(system));
    if (entity.role().isPresent()) {
      settings = settings.withRole(entity.role().get());
    }
    Object stop = entity.stopMessage().isPresent() ? entity.stopMessage().get() : PoisonPill.getInstance();
    dev.troupe.actor.Props props = Adapter.props(Behaviors.<M>setup(ctx -> {
      String id = URLDecoder.decode(ctx.getSelf().path().name(), StandardCharsets.UTF_8);
      ShardRef shard = new ShardRef(Adapter.toClassic(ctx.getSystem()), ctx.getSelf().path().parent(), stop);
      return entity.createBehavior().apply(new EntityContext<>(key, id, shard));
    }), entity.entityProps());
    dev.troupe.actor.ActorRef region = dev.troupe.cluster.sharding.ClusterSharding.get(system)
        .start(key.name(), props, settings, new EnvelopeExtractor(settings.numberOfShards()), stop);
    keys.put(key.name(), key);
    return Adapter.toTyped(region);
  }

  /**
   * A ref to one entity of a type started here by {@link #init}.
   *
   * @param typeKey the entity's type
   * @param entityId its id, not empty
   * @param <M> its protocol
   * @return the ref
   * @throws IllegalArgumentException if the type has not been started here (or runs here with
   *     another message class), or the id is empty
   */
  public synchronized <M> EntityRef<M> entityRefFor(EntityTypeKey<M> typeKey, String entityId) {
    Objects.requireNonNull(typeKey, "typeKey");
    Objects.requireNonNull(entityId, "entityId");
    if (entityId.isEmpty()) {
      throw new IllegalArgumentException("an entity id must not be empty");
    }
    EntityTypeKey<?> running = keys.get(typeKey.name());
    if (running == null) {
      throw new IllegalArgumentException("entity type '" + typeKey.name() + "' has not been started on "
          + system.name() + ": call ClusterSharding.init(Entity.of(...)) first");
    }
    if (!running.equals(typeKey)) {
      throw new IllegalArgumentException("entity type '" + typeKey.name() + "' runs here with " + running
          + ", not " + typeKey);
    }
    return new EntityRef<>(typeKey, entityId,
        dev.troupe.cluster.sharding.ClusterSharding.get(system).shardRegion(typeKey.name()));
  }

  /** What an entity may tell its shard ({@link EntityContext#getShard()}). */
  public interface ShardCommand {}

  /**
   * Asks the shard to stop {@code entity}: the shard sends it the type's stop message (or stops it),
   * holds the messages that arrive for it meanwhile, and starts it again with them once it stopped.
   *
   * @param entity the entity's own ref ({@code ctx.getSelf()})
   * @param <M> its protocol
   */
  public record Passivate<M>(ActorRef<M> entity) implements ShardCommand {
    /** @param entity the entity's own ref */
    public Passivate {
      Objects.requireNonNull(entity, "entity");
    }
  }

  /** Entities by the id in their envelope, over {@code numberOfShards} shards by the id's hash. */
  private static final class EnvelopeExtractor extends ShardRegion.HashCodeMessageExtractor {
    EnvelopeExtractor(int numberOfShards) {
      super(numberOfShards);
    }

    @Override
    public String entityId(Object message) {
      return message instanceof ShardingEnvelope<?> e ? e.entityId() : null;
    }

    @Override
    public Object entityMessage(Object message) {
      return message instanceof ShardingEnvelope<?> e ? e.message() : null;
    }
  }
}
