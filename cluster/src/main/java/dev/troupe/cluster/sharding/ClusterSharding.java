package dev.troupe.cluster.sharding;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.cluster.internal.sharding.RegionActor;
import dev.troupe.cluster.internal.sharding.ShardingHooks;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cluster sharding of one actor system: starts the region of each entity type ({@link #start}), or
 * a proxy region that hosts nothing ({@link #startProxy}), and finds them again ({@link
 * #shardRegion}). The region of type {@code T} is the actor at {@link #regionPath regionPath(T)};
 * the regions of a type on all members find each other there.
 *
 * <pre>{@code
 * ActorRef counters = ClusterSharding.get(system).start("Counter", Props.create(Counter.class),
 *     ClusterShardingSettings.create(system), new ShardRegion.HashCodeMessageExtractor(100) {
 *       public String entityId(Object m) { return ((Increment) m).counterId(); }
 *     });
 * counters.tell(new Increment("apples"), getSelf());
 * }</pre>
 *
 * <p>The membership comes from the cluster: {@code start} and {@code startProxy} fail with an
 * {@link IllegalStateException} on a system where the cluster has not started.
 */
public final class ClusterSharding {
  private static final ConcurrentHashMap<ActorSystem, ClusterSharding> BY_SYSTEM = new ConcurrentHashMap<>();

  private final ActorSystem system;
  private final Map<String, ActorRef> regions = new HashMap<>(); // guarded by this

  private ClusterSharding(ActorSystem system) {
    this.system = system;
  }

  /**
   * The sharding of {@code system}; the same instance on every call while the system lives.
   *
   * @param system an actor system
   * @return its sharding
   */
  public static ClusterSharding get(ActorSystem system) {
    Objects.requireNonNull(system, "system");
    ClusterSharding s = BY_SYSTEM.get(system);
    if (s != null) {
      return s;
    }
    ClusterSharding created = new ClusterSharding(system);
    s = BY_SYSTEM.putIfAbsent(system, created);
    if (s != null) {
      return s;
    }
    system.getWhenTerminated().whenComplete((t, e) -> BY_SYSTEM.remove(system, created));
    return created;
  }

  /**
   * @param typeName an entity type's name
   * @return the name of the type's region under {@code /user} on every member
   */
  public static String regionName(String typeName) {
    return "sharding-" + URLEncoder.encode(typeName, StandardCharsets.UTF_8);
  }

  /**
   * @param typeName an entity type's name
   * @return the path of the type's region within every member, {@code /user/sharding-<type>}
   */
  public static String regionPath(String typeName) {
    return "/user/" + regionName(typeName);
  }

  /**
   * Starts the region of {@code typeName} on this node: it hosts a share of the type's shards when
   * this member has {@code settings.role()}. Starting a type again returns the running region.
   *
   * @param typeName the type's name, the same on every member
   * @param entityProps how an entity is created (its id is its actor name, URL-encoded)
   * @param settings the type's settings
   * @param extractor reads the messages; the same on every member
   * @return the region: send it the entities' messages
   * @throws IllegalStateException if the cluster has not started on this system
   */
  public synchronized ActorRef start(String typeName, Props entityProps, ClusterShardingSettings settings,
      ShardRegion.MessageExtractor extractor) {
    return start(typeName, entityProps, settings, extractor, PoisonPill.getInstance());
  }

  /**
   * Starts the region of {@code typeName} as {@link #start(String, Props, ClusterShardingSettings,
   * ShardRegion.MessageExtractor)} does, with the message each entity gets when its shard moves to
   * another member (after the messages already queued for it), and when it is passivated for being
   * idle ({@code passivate-idle-after}): the entity must stop on it, e.g. after saving its state. The
   * default is {@code PoisonPill}.
   *
   * @param typeName the type's name, the same on every member
   * @param entityProps how an entity is created (its id is its actor name, URL-encoded)
   * @param settings the type's settings
   * @param extractor reads the messages; the same on every member
   * @param handOffStopMessage what an entity is told when its shard is handed over
   * @return the region: send it the entities' messages
   * @throws IllegalStateException if the cluster has not started on this system
   */
  public synchronized ActorRef start(String typeName, Props entityProps, ClusterShardingSettings settings,
      ShardRegion.MessageExtractor extractor, Object handOffStopMessage) {
    checkName(typeName);
    Objects.requireNonNull(handOffStopMessage, "handOffStopMessage");
    Objects.requireNonNull(entityProps, "entityProps");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(extractor, "extractor");
    ActorRef existing = regions.get(typeName);
    if (existing != null) {
      return existing;
    }
    ShardingHooks.TopologySource source = source();
    ActorRef region = system.actorOf(RegionActor.props(typeName, entityProps, settings, extractor,
        source.selfAddress(), source.topology(typeName, settings.role()), handOffStopMessage), regionName(typeName));
    regions.put(typeName, region);
    return region;
  }

  /**
   * Starts a proxy region of {@code typeName}: it sends each message to the member that hosts its
   * shard, and hosts nothing (for members without the type's role).
   *
   * @param typeName the type's name
   * @param role the role of the members that host the type's regions; empty = every member
   * @param extractor reads the messages; the same as the hosting regions'
   * @return the proxy region
   * @throws IllegalStateException if the cluster has not started on this system
   */
  public synchronized ActorRef startProxy(String typeName, Optional<String> role,
      ShardRegion.MessageExtractor extractor) {
    checkName(typeName);
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(extractor, "extractor");
    ActorRef existing = regions.get(typeName);
    if (existing != null) {
      return existing;
    }
    ClusterShardingSettings settings = ClusterShardingSettings.create(system).withRole(role.orElse(null));
    ActorRef region = system.actorOf(RegionActor.proxyProps(typeName, settings, extractor,
        source().topology(typeName, settings.role())), regionName(typeName));
    regions.put(typeName, region);
    return region;
  }

  /**
   * @param typeName a started type's name
   * @return its region (or proxy) on this node
   * @throws IllegalArgumentException if the type has not been started here
   */
  public synchronized ActorRef shardRegion(String typeName) {
    ActorRef r = regions.get(typeName);
    if (r == null) {
      throw new IllegalArgumentException("shard type '" + typeName + "' has not been started on "
          + system.name() + ": call ClusterSharding.start (or startProxy) first");
    }
    return r;
  }

  private ShardingHooks.TopologySource source() {
    return ShardingHooks.source(system).orElseThrow(() -> new IllegalStateException(
        "the cluster has not started on actor system '" + system.name()
            + "': sharding needs troupe.actor.provider = cluster"));
  }

  private static void checkName(String typeName) {
    Objects.requireNonNull(typeName, "typeName");
    if (typeName.isBlank()) {
      throw new IllegalArgumentException("a shard type's name must not be blank");
    }
  }
}
