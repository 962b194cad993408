package dev.troupe.cluster.sharding.typed;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * How the entities of one type are made and run: given to {@link ClusterSharding#init} on every
 * member that hosts the type. Immutable; each {@code with} returns a copy.
 *
 * <pre>{@code
 * sharding.init(Entity.of(COUNTER, ctx -> Counter.create(ctx.getEntityId()))
 *     .withStopMessage(new Counter.Stop())
 *     .withSettings(ClusterShardingSettings.create(classicSystem).withPassivateIdleAfter(Duration.ofMinutes(2))));
 * }</pre>
 *
 * @param <M> the entities' protocol
 */
public final class Entity<M> {
  private final EntityTypeKey<M> typeKey;
  private final Function<EntityContext<M>, Behavior<M>> createBehavior;
  private final M stopMessage; // null: stopped directly
  private final ClusterShardingSettings settings; // null: the system's troupe.cluster.sharding
  private final String role; // null: the settings' role
  private final Props props;

  private Entity(EntityTypeKey<M> typeKey, Function<EntityContext<M>, Behavior<M>> createBehavior, M stopMessage,
      ClusterShardingSettings settings, String role, Props props) {
    this.typeKey = typeKey;
    this.createBehavior = createBehavior;
    this.stopMessage = stopMessage;
    this.settings = settings;
    this.role = role;
    this.props = props;
  }

  /**
   * @param typeKey the entities' type
   * @param createBehavior makes an entity's behaviour, called on the entity's own thread each time
   *     it starts (its first message, and again after it was passivated or moved)
   * @param <M> the entities' protocol
   * @return the entity type with the system's sharding settings and no stop message
   */
  public static <M> Entity<M> of(EntityTypeKey<M> typeKey, Function<EntityContext<M>, Behavior<M>> createBehavior) {
    return new Entity<>(Objects.requireNonNull(typeKey, "typeKey"), Objects.requireNonNull(createBehavior,
        "createBehavior"), null, null, null, Props.empty());
  }

  /**
   * The message an entity gets when it is passivated (by its own request or for being idle) or its
   * shard moves to another member, after the messages already queued for it: the entity must stop on it (return {@code Behaviors.stopped()}),
   * e.g. after saving its state. Without one, the entity is stopped directly ({@code PostStop} runs).
   *
   * @param stopMessage the message
   * @return a copy with it
   */
  public Entity<M> withStopMessage(M stopMessage) {
    return new Entity<>(typeKey, createBehavior, Objects.requireNonNull(stopMessage, "stopMessage"), settings, role,
        props);
  }

  /**
   * @param settings the type's sharding settings (number of shards, hand-over timeout, buffer size,
   *     idle passivation, role); the default is the system's {@code troupe.cluster.sharding}
   * @return a copy with them
   */
  public Entity<M> withSettings(ClusterShardingSettings settings) {
    return new Entity<>(typeKey, createBehavior, stopMessage, Objects.requireNonNull(settings, "settings"), role,
        props);
  }

  /**
   * @param role only members with this role host the type's entities (the settings' role otherwise)
   * @return a copy with it
   */
  public Entity<M> withRole(String role) {
    Objects.requireNonNull(role, "role");
    if (role.isBlank()) {
      throw new IllegalArgumentException("a role must not be blank");
    }
    return new Entity<>(typeKey, createBehavior, stopMessage, settings, role, props);
  }

  /**
   * @param props the entities' dispatcher and mailbox
   * @return a copy with them
   */
  public Entity<M> withEntityProps(Props props) {
    return new Entity<>(typeKey, createBehavior, stopMessage, settings, role, Objects.requireNonNull(props, "props"));
  }

  /** @return the entities' type */
  public EntityTypeKey<M> typeKey() {
    return typeKey;
  }

  /** @return what makes an entity's behaviour */
  public Function<EntityContext<M>, Behavior<M>> createBehavior() {
    return createBehavior;
  }

  /** @return the stop message, if one was given */
  public Optional<M> stopMessage() {
    return Optional.ofNullable(stopMessage);
  }

  /** @return the settings given, if any */
  public Optional<ClusterShardingSettings> settings() {
    return Optional.ofNullable(settings);
  }

  /** @return the role given, if any */
  public Optional<String> role() {
    return Optional.ofNullable(role);
  }

  /** @return the entities' props */
  public Props entityProps() {
    return props;
  }

  @Override
  public String toString() {
    return "Entity(" + typeKey + ")";
  }
}
