package dev.troupe.persistence;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Extension;
import dev.troupe.actor.ExtensionId;
import dev.troupe.persistence.internal.Plugins;
import dev.troupe.persistence.journal.EventAdapters;
import dev.troupe.persistence.spi.Journal;
import dev.troupe.persistence.spi.SnapshotStore;
import dev.troupe.persistence.state.DurableStateStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A system's persistence: its journal, snapshot store and durable state store plugins, each made on
 * first use from its configuration section and closed when the system terminates.
 *
 * <pre>{@code
 * troupe.persistence.journal.plugin = "troupe.persistence.journal.file"
 * troupe.persistence.snapshot-store.plugin = "troupe.persistence.snapshot-store.local"
 * troupe.persistence.state.plugin = "troupe.persistence.state.file"
 * }</pre>
 *
 * <p>A persistent actor chooses other plugins with {@code journalPluginId()} and {@code
 * snapshotPluginId()} (a durable-state actor with {@code durableStateStorePluginId()}): the path of
 * a section with a {@code class} key. Thread-safe.
 */
public final class Persistence implements Extension {
  private static final Logger LOG = LoggerFactory.getLogger(Persistence.class);

  /** The extension's id. */
  public static final ExtensionId<Persistence> ID = Persistence::new;

  private final ActorSystem system;
  private final Config config;
  private final int replayBatchSize;
  private final java.time.Duration callTimeout;
  private final java.time.Duration redeliverInterval;
  private final int redeliveryBurstLimit;
  private final int warnAfterNumberOfUnconfirmedAttempts;
  private final int maxUnconfirmedMessages;
  private final Map<String, Journal> journals = new ConcurrentHashMap<>();
  private final Map<String, EventAdapters> adapters = new ConcurrentHashMap<>();
  private final Map<String, SnapshotStore> snapshotStores = new ConcurrentHashMap<>();
  private final Map<String, DurableStateStore> stateStores = new ConcurrentHashMap<>();
  private volatile boolean terminated;

  private Persistence(ActorSystem system) {
    this.system = system;
    this.config = system.settings().config();
    this.replayBatchSize = positiveInt(config, "troupe.persistence.replay-batch-size");
    this.callTimeout = positiveDuration(config, "troupe.persistence.call-timeout");
    this.redeliverInterval = positiveDuration(config, "troupe.persistence.at-least-once-delivery.redeliver-interval");
    this.redeliveryBurstLimit = positiveInt(config, "troupe.persistence.at-least-once-delivery.redelivery-burst-limit");
    this.warnAfterNumberOfUnconfirmedAttempts =
        positiveInt(config, "troupe.persistence.at-least-once-delivery.warn-after-number-of-unconfirmed-attempts");
    this.maxUnconfirmedMessages = positiveInt(config, "troupe.persistence.at-least-once-delivery.max-unconfirmed-messages");
    system.getWhenTerminated().whenComplete((t, e) -> closeAll());
  }

  /**
   * @param system an actor system
   * @return its persistence
   */
  public static Persistence get(ActorSystem system) {
    return system.registerExtension(ID);
  }

  /** @return the most events recovery reads from the journal at once */
  public int replayBatchSize() {
    return replayBatchSize;
  }

  /** @return how long a persistent actor waits for a plugin's answer before it takes the call as failed */
  public java.time.Duration callTimeout() {
    return callTimeout;
  }

  /**
   * @return how long an {@link AbstractPersistentActorWithAtLeastOnceDelivery} waits for a
   *     confirmation before it sends a delivery again ({@code
   *     troupe.persistence.at-least-once-delivery.redeliver-interval})
   */
  public java.time.Duration redeliverInterval() {
    return redeliverInterval;
  }

  /**
   * @return the most deliveries an {@link AbstractPersistentActorWithAtLeastOnceDelivery} sends
   *     again per redelivery tick ({@code troupe.persistence.at-least-once-delivery.redelivery-burst-limit})
   */
  public int redeliveryBurstLimit() {
    return redeliveryBurstLimit;
  }

  /**
   * @return after how many unconfirmed attempts of a delivery an {@link
   *     AbstractPersistentActorWithAtLeastOnceDelivery} gets an {@link UnconfirmedWarning} ({@code
   *     troupe.persistence.at-least-once-delivery.warn-after-number-of-unconfirmed-attempts})
   */
  public int warnAfterNumberOfUnconfirmedAttempts() {
    return warnAfterNumberOfUnconfirmedAttempts;
  }

  /**
   * @return the most unconfirmed deliveries an {@link AbstractPersistentActorWithAtLeastOnceDelivery}
   *     keeps; {@code deliver} refuses more ({@code
   *     troupe.persistence.at-least-once-delivery.max-unconfirmed-messages})
   */
  public int maxUnconfirmedMessages() {
    return maxUnconfirmedMessages;
  }

  /**
   * A plugin's answer, or a {@link java.util.concurrent.TimeoutException} naming the call after
   * {@link #callTimeout()}: a store that never answers fails the actor's recovery or write instead of
   * leaving its commands waiting for ever. An answer already given costs nothing more.
   *
   * @param stage the plugin's answer
   * @param what the call, for the message (e.g. "write of persistence id [a]")
   * @param <T> the answer's type
   * @return the answer, bounded in time
   */
  public <T> java.util.concurrent.CompletionStage<T> bounded(java.util.concurrent.CompletionStage<T> stage, String what) {
    java.util.concurrent.CompletableFuture<T> given;
    try {
      given = stage.toCompletableFuture();
    } catch (UnsupportedOperationException notOne) { // a stage that is no future: follow it
      java.util.concurrent.CompletableFuture<T> follow = new java.util.concurrent.CompletableFuture<>();
      stage.whenComplete((v, e) -> {
        if (e == null) {
          follow.complete(v);
        } else {
          follow.completeExceptionally(e);
        }
      });
      given = follow;
    }
    if (given.isDone()) {
      return given;
    }
    java.util.concurrent.CompletableFuture<T> bounded = new java.util.concurrent.CompletableFuture<>();
    dev.troupe.actor.Cancellable timer;
    try {
      timer = system.scheduler().scheduleOnce(callTimeout, () -> bounded.completeExceptionally(
          new java.util.concurrent.TimeoutException(what + " got no answer within " + callTimeout.toMillis()
              + " ms (troupe.persistence.call-timeout)")), Runnable::run);
    } catch (IllegalStateException terminated) {
      return given; // the system has ended: nothing waits any more
    }
    given.whenComplete((v, e) -> {
      timer.cancel();
      if (e == null) {
        bounded.complete(v);
      } else {
        bounded.completeExceptionally(e);
      }
    });
    return bounded;
  }

  /**
   * The journal plugin at a configuration path, made on first use.
   *
   * @param pluginId the path of its section; empty for {@code troupe.persistence.journal.plugin}
   * @return the plugin
   * @throws ConfigurationException if the section is missing or malformed, or its class cannot be
   *     made
   */
  public Journal journalFor(String pluginId) {
    return plugin(journals, journalPath(pluginId), Journal.class);
  }

  /**
   * The event adapters of a journal plugin ({@code event-adapters} and {@code
   * event-adapter-bindings} in its section), made on first use, once per plugin: what persistent
   * actors and persistence queries pass the events they write and read through. A plugin whose
   * section configures none gets {@link EventAdapters#none()}, which {@link EventAdapters#isEmpty()}
   * tells apart.
   *
   * @param pluginId the path of the journal's section; empty for {@code troupe.persistence.journal.plugin}
   * @return its adapters
   * @throws ConfigurationException naming the key, if the section or an adapter's configuration is
   *     wrong, or an adapter cannot be made
   */
  public EventAdapters adaptersFor(String pluginId) {
    String path = journalPath(pluginId);
    EventAdapters a = adapters.get(path);
    if (a != null) {
      return a;
    }
    Config section;
    try {
      section = config.getConfig(path);
    } catch (ConfigException e) {
      throw new ConfigurationException("persistence plugin [" + path + "]: a section is needed: " + e.getMessage(), e);
    }
    EventAdapters fresh = EventAdapters.create(system, section, path); // outside the map: an adapter may use Persistence
    EventAdapters raced = adapters.putIfAbsent(path, fresh);
    return raced != null ? raced : fresh;
  }

  private String journalPath(String pluginId) {
    return pluginId.isEmpty() ? pluginPath("troupe.persistence.journal.plugin") : pluginId;
  }

  /**
   * The snapshot store plugin at a configuration path, made on first use.
   *
   * @param pluginId the path of its section; empty for {@code troupe.persistence.snapshot-store.plugin}
   * @return the plugin
   * @throws ConfigurationException if the section is missing or malformed, or its class cannot be
   *     made
   */
  public SnapshotStore snapshotStoreFor(String pluginId) {
    String id = pluginId.isEmpty() ? pluginPath("troupe.persistence.snapshot-store.plugin") : pluginId;
    return plugin(snapshotStores, id, SnapshotStore.class);
  }

  /**
   * The durable state store plugin at a configuration path, made on first use.
   *
   * @param pluginId the path of its section; empty for {@code troupe.persistence.state.plugin}
   * @return the plugin
   * @throws ConfigurationException if the section is missing or malformed, or its class cannot be
   *     made
   */
  public DurableStateStore durableStateStoreFor(String pluginId) {
    String id = pluginId.isEmpty() ? pluginPath("troupe.persistence.state.plugin") : pluginId;
    return plugin(stateStores, id, DurableStateStore.class);
  }

  /**
   * The plugin at a path, made outside the map's lock (a plugin may use another one while it is
   * made); of two threads that make one at once, the first to finish wins and the other closes its own.
   */
  private <P extends AutoCloseable> P plugin(Map<String, P> made, String path, Class<P> kind) {
    P p = made.get(path);
    if (p != null) {
      return p;
    }
    P fresh = create(path, kind);
    P raced = made.putIfAbsent(path, fresh);
    if (raced != null) {
      closeQuietly(path, fresh);
      return raced;
    }
    if (terminated) { // the system ended while it was made: closeAll may have missed it
      made.remove(path, fresh);
      closeQuietly(path, fresh);
    }
    return fresh;
  }

  private String pluginPath(String key) {
    String path;
    try {
      path = config.getString(key);
    } catch (ConfigException e) {
      throw new ConfigurationException(key + ": " + e.getMessage(), e);
    }
    if (path.isBlank()) {
      throw new ConfigurationException(key + " is empty: name the configuration section of a plugin"
          + " (e.g. troupe.persistence.journal.inmem), or give the actor a plugin id of its own");
    }
    return path;
  }

  private <P> P create(String path, Class<P> kind) {
    if (terminated) {
      throw new IllegalStateException("system [" + system.name() + "] has terminated: no " + kind.getSimpleName() + " plugin is made for it");
    }
    return Plugins.create(system, config, path, kind, "persistence plugin");
  }

  private void closeAll() {
    terminated = true;
    journals.forEach((path, j) -> closeQuietly(path, j));
    snapshotStores.forEach((path, s) -> closeQuietly(path, s));
    stateStores.forEach((path, s) -> closeQuietly(path, s));
  }

  private static void closeQuietly(String path, AutoCloseable plugin) {
    try {
      plugin.close();
    } catch (Exception e) {
      LOG.warn("persistence plugin [{}] failed to close", path, e);
    }
  }

  private static java.time.Duration positiveDuration(Config config, String key) {
    java.time.Duration d;
    try {
      d = config.getDuration(key);
    } catch (ConfigException e) {
      throw new ConfigurationException(key + ": " + e.getMessage(), e);
    }
    if (d.isNegative() || d.isZero()) {
      throw new ConfigurationException(key + " must be positive, was " + d);
    }
    return d;
  }

  private static int positiveInt(Config config, String key) {
    int v;
    try {
      v = config.getInt(key);
    } catch (ConfigException e) {
      throw new ConfigurationException(key + ": " + e.getMessage(), e);
    }
    if (v < 1) {
      throw new ConfigurationException(key + " must be at least 1, was " + v);
    }
    return v;
  }
}
