package dev.troupe.persistence.state;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Extension;
import dev.troupe.actor.ExtensionId;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.internal.PluginContext;
import dev.troupe.persistence.internal.query.PollingDurableStateQuery;
import dev.troupe.persistence.internal.query.Subscriptions;
import dev.troupe.persistence.query.javadsl.DurableStateStoreQuery;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The durable state stores of a system as their users see them, by the plugin id an actor names in
 * {@code durableStateStorePluginId()}: Pekko's {@code DurableStateStoreRegistry}.
 *
 * <pre>{@code
 * DurableStateStoreQuery<Profile> profiles =
 *     DurableStateStoreRegistry.get(system).durableStateStoreQueryFor("");   // the default store
 * profiles.changes("profiles", Offset.noOffset()).subscribe(readModel);
 * }</pre>
 *
 * <p>The queries ({@code javadsl.DurableStateStoreQuery}, {@code
 * javadsl.DurableStateStorePagedPersistenceIdsQuery}) are the store itself if its plugin implements
 * them, else Troupe's, which read any store through the SPI ({@link
 * DurableStateStore#changesByTag}, {@link DurableStateStore#highestOffset}, {@link
 * DurableStateStore#persistenceIds}; the in-memory and file stores implement them) in batches of
 * {@code troupe.persistence.state.query.max-buffer-size}, a live query that has caught up reading
 * again every {@code troupe.persistence.state.query.refresh-interval}. Each call of the store is
 * bounded by {@code troupe.persistence.call-timeout}, and a query whose call fails ends with that
 * error; when the system terminates, every query still running ends with an {@code
 * IllegalStateException}. Thread-safe; one query object per store, and each subscription reads on
 * its own.
 */
public final class DurableStateStoreRegistry implements Extension {
  /** The extension's id. */
  public static final ExtensionId<DurableStateStoreRegistry> ID = DurableStateStoreRegistry::new;
  private static final String QUERY_SECTION = "troupe.persistence.state.query";

  private final ActorSystem system;
  private final Persistence persistence;
  private final Duration refreshInterval;
  private final int maxBufferSize;
  private final Subscriptions running;
  private final Map<DurableStateStore, PollingDurableStateQuery<?>> queries = new ConcurrentHashMap<>();

  private DurableStateStoreRegistry(ActorSystem system) {
    PluginContext context =
        new PluginContext(system, ConfigFactory.empty(), QUERY_SECTION, DurableStateStoreRegistry.class);
    this.system = system;
    this.refreshInterval = context.duration("refresh-interval");
    this.maxBufferSize = context.count("max-buffer-size");
    this.persistence = Persistence.get(system);
    this.running = new Subscriptions(system);
  }

  /**
   * @param system a system
   * @return its durable state store registry
   * @throws ConfigurationException if a key of {@code troupe.persistence.state.query} is wrong
   */
  public static DurableStateStoreRegistry get(ActorSystem system) {
    return system.registerExtension(ID);
  }

  /**
   * The store of a plugin id as the caller wants to use it: the plugin itself if it is a {@code
   * type} ({@code DurableStateStore.class} gives the SPI), else its queries.
   *
   * @param type what the caller uses it as: {@code DurableStateStoreQuery.class}, {@code
   *     DurableStateStorePagedPersistenceIdsQuery.class}, or a class the plugin is
   * @param pluginId the path of the store's section, as an actor's {@code
   *     durableStateStorePluginId()}; empty for {@code troupe.persistence.state.plugin}
   * @param <T> that type
   * @return the store, or its queries
   * @throws ConfigurationException if the store cannot be made, or neither it nor its queries are a
   *     {@code type}
   */
  public <T> T getDurableStateStoreFor(Class<T> type, String pluginId) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(pluginId, "pluginId");
    DurableStateStore store = persistence.durableStateStoreFor(pluginId);
    if (type.isInstance(store)) {
      return type.cast(store);
    }
    PollingDurableStateQuery<?> q = queries.computeIfAbsent(store, s -> new PollingDurableStateQuery<>(persistence, s,
        pluginId.isEmpty() ? system.settings().config().getString("troupe.persistence.state.plugin") : pluginId,
        refreshInterval, maxBufferSize, running));
    if (!type.isInstance(q)) {
      throw new ConfigurationException("durable state store plugin [" + pluginId + "] is a "
          + store.getClass().getName() + ", and neither it nor its queries are a " + type.getName());
    }
    return type.cast(q);
  }

  /**
   * The queries of a store, typed: as {@code getDurableStateStoreFor(DurableStateStoreQuery.class,
   * pluginId)}, without the raw type. The store keeps objects: {@code A} is the caller's word for
   * what the actors stored under the tags it queries (a value of another class fails where it is
   * used, with a {@code ClassCastException}).
   *
   * @param pluginId the path of the store's section; empty for {@code troupe.persistence.state.plugin}
   * @param <A> the type of the state
   * @return the store's queries
   * @throws ConfigurationException if the store cannot be made
   */
  @SuppressWarnings("unchecked")
  public <A> DurableStateStoreQuery<A> durableStateStoreQueryFor(String pluginId) {
    return getDurableStateStoreFor(DurableStateStoreQuery.class, pluginId);
  }
}
