package dev.troupe.cluster.sharding.typed;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link ShardedDaemonProcess} runs: how often each member reminds the sharding that every
 * instance should run ({@code troupe.cluster.sharded-daemon-process.keep-alive-interval}, default 10
 * s), the role of the members that run instances, and the sharding settings of its entity type.
 * Immutable; the {@code with…} methods return copies.
 */
public final class ShardedDaemonProcessSettings {
  /** The configuration section these settings are read from. */
  public static final String CONFIG_PATH = "troupe.cluster.sharded-daemon-process";

  private final Duration keepAliveInterval;
  private final String role; // null: every member
  private final ClusterShardingSettings shardingSettings; // null: the system's troupe.cluster.sharding

  private ShardedDaemonProcessSettings(Duration keepAliveInterval, String role, ClusterShardingSettings shardingSettings) {
    this.keepAliveInterval = keepAliveInterval;
    this.role = role;
    this.shardingSettings = shardingSettings;
  }

  /**
   * @param system a typed actor system
   * @return the settings in its configuration
   * @throws ConfigurationException if a value is malformed, naming its key
   */
  public static ShardedDaemonProcessSettings create(ActorSystem<?> system) {
    return create(Adapter.toClassic(Objects.requireNonNull(system, "system")));
  }

  /**
   * @param system a classic actor system
   * @return the settings in its configuration
   * @throws ConfigurationException if a value is malformed, naming its key
   */
  public static ShardedDaemonProcessSettings create(dev.troupe.actor.ActorSystem system) {
    return fromConfig(Objects.requireNonNull(system, "system").settings().config());
  }

  /**
   * @param config a whole configuration, holding {@value #CONFIG_PATH}
   * @return the settings it holds
   * @throws ConfigurationException if a value is malformed, naming its key
   */
  public static ShardedDaemonProcessSettings fromConfig(Config config) {
    String key = CONFIG_PATH + ".keep-alive-interval";
    Duration interval;
    try {
      interval = config.getDuration(key);
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid value at " + key + ": expected a duration such as 10s: " + e.getMessage(), e);
    }
    if (interval.isNegative() || interval.isZero()) {
      throw new ConfigurationException("invalid value at " + key + ": must be positive, was " + interval);
    }
    return new ShardedDaemonProcessSettings(interval, null, null);
  }

  /** @return how often each member with the role asks the sharding to run every instance */
  public Duration keepAliveInterval() {
    return keepAliveInterval;
  }

  /** @return the role of the members that run instances; empty = every member */
  public Optional<String> role() {
    return Optional.ofNullable(role);
  }

  /** @return the entity type's sharding settings; empty = the system's {@code troupe.cluster.sharding} */
  public Optional<ClusterShardingSettings> shardingSettings() {
    return Optional.ofNullable(shardingSettings);
  }

  /**
   * @param interval how often to ask for every instance, positive
   * @return a copy with that interval
   */
  public ShardedDaemonProcessSettings withKeepAliveInterval(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("keep-alive-interval must be positive, was " + interval);
    }
    return new ShardedDaemonProcessSettings(interval, role, shardingSettings);
  }

  /**
   * @param role the role a member needs to run instances, not blank
   * @return a copy with that role
   */
  public ShardedDaemonProcessSettings withRole(String role) {
    Objects.requireNonNull(role, "role");
    if (role.isBlank() || !role.strip().equals(role)) {
      throw new IllegalArgumentException("a role is a name without surrounding spaces, was '" + role + "'");
    }
    return new ShardedDaemonProcessSettings(keepAliveInterval, role, shardingSettings);
  }

  /**
   * The sharding settings of the process's entity type. Its idle passivation is always off (an
   * instance runs until its member leaves) and its role is this object's {@link #role()} when one is
   * set.
   *
   * @param settings the sharding settings
   * @return a copy with them
   */
  public ShardedDaemonProcessSettings withShardingSettings(ClusterShardingSettings settings) {
    return new ShardedDaemonProcessSettings(keepAliveInterval, role, Objects.requireNonNull(settings, "settings"));
  }

  @Override
  public String toString() {
    return "ShardedDaemonProcessSettings(keepAliveInterval=" + keepAliveInterval + ", role=" + role + ")";
  }
}
