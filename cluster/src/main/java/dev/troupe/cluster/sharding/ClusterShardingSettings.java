package dev.troupe.cluster.sharding;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.internal.config.ClusterConfig;
import dev.troupe.runtime.spi.ConfigReader;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code troupe.cluster.sharding.*}, read and checked once; a malformed value is a {@link
 * ConfigurationException} naming the full key. Immutable: the {@code with…} methods return a copy.
 */
public final class ClusterShardingSettings {
  /** The section these settings come from. */
  public static final String ROOT = "troupe.cluster.sharding";

  private final int numberOfShards;
  private final Optional<String> role;
  private final Duration handOverTimeout;
  private final int bufferSize;
  private final Optional<Duration> passivateIdleAfter;
  private final Duration leaveCheckTimeout;

  private ClusterShardingSettings(
      int numberOfShards, Optional<String> role, Duration handOverTimeout, int bufferSize,
      Optional<Duration> passivateIdleAfter, Duration leaveCheckTimeout) {
    this.leaveCheckTimeout = leaveCheckTimeout;
    this.numberOfShards = numberOfShards;
    this.role = role;
    this.handOverTimeout = handOverTimeout;
    this.bufferSize = bufferSize;
    this.passivateIdleAfter = passivateIdleAfter;
  }

  /**
   * @param system an actor system
   * @return its {@code troupe.cluster.sharding} settings
   * @throws ConfigurationException naming the full key of the first malformed value
   */
  public static ClusterShardingSettings create(ActorSystem system) {
    return from(system.settings().config());
  }

  /**
   * @param config a whole configuration (holding {@code troupe.cluster.sharding})
   * @return the settings
   * @throws ConfigurationException naming the full key of the first malformed value
   */
  public static ClusterShardingSettings from(Config config) {
    Config c = ClusterConfig.section(config, ROOT);
    int shards = ConfigReader.intAtLeast(c, ROOT, "number-of-shards", 1);
    String roleText = ConfigReader.string(c, ROOT, "role");
    if (!roleText.strip().equals(roleText)) {
      throw bad("role", "a role is a name without surrounding spaces, was '" + roleText + "'", null);
    }
    Duration timeout = ClusterConfig.positiveDuration(c, ROOT, "hand-over-timeout");
    int buffer = ConfigReader.intAtLeast(c, ROOT, "buffer-size", 1);
    Optional<Duration> idle = ClusterConfig.offOrPositiveDuration(c, ROOT, "passivate-idle-after", "2m");
    Duration leaveCheck = ClusterConfig.positiveDuration(c, ROOT, "leave-check-timeout");
    return new ClusterShardingSettings(
        shards, roleText.isEmpty() ? Optional.empty() : Optional.of(roleText), timeout, buffer, idle, leaveCheck);
  }

  /** @return {@code number-of-shards}: shards for extractors built from the settings */
  public int numberOfShards() {
    return numberOfShards;
  }

  /** @return {@code role}: only members with this role host regions of the type; empty = all */
  public Optional<String> role() {
    return role;
  }

  /**
   * @return {@code hand-over-timeout}: the longest a new owner holds a shard's messages while its
   *     old owner, still a member, stops the shard's entities
   */
  public Duration handOverTimeout() {
    return handOverTimeout;
  }

  /** @return {@code buffer-size}: the messages held per shard while it has no owner ready */
  public int bufferSize() {
    return bufferSize;
  }

  /** @return {@code passivate-idle-after}: entities idle this long are stopped; empty = never */
  public Optional<Duration> passivateIdleAfter() {
    return passivateIdleAfter;
  }

  /**
   * @return {@code leave-check-timeout}: the longest a leaving region waits for a peer region to
   *     confirm that it no longer routes to the leaver (a peer that cannot answer, cut off or gone,
   *     cannot send it anything either)
   */
  public Duration leaveCheckTimeout() {
    return leaveCheckTimeout;
  }

  /**
   * @param timeout the leave-check timeout, positive
   * @return a copy with that timeout
   */
  public ClusterShardingSettings withLeaveCheckTimeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("leave-check-timeout must be positive, was " + timeout);
    }
    return new ClusterShardingSettings(numberOfShards, role, handOverTimeout, bufferSize, passivateIdleAfter, timeout);
  }

  /**
   * @param newRole the role whose members host the regions; {@code null} or empty = every member
   * @return a copy with that role
   */
  public ClusterShardingSettings withRole(String newRole) {
    if (newRole != null && (newRole.isBlank() ? !newRole.isEmpty() : !newRole.strip().equals(newRole))) {
      throw new IllegalArgumentException("a role is a name without surrounding spaces, was '" + newRole + "'");
    }
    Optional<String> r = newRole == null || newRole.isEmpty() ? Optional.empty() : Optional.of(newRole);
    return new ClusterShardingSettings(numberOfShards, r, handOverTimeout, bufferSize, passivateIdleAfter,
        leaveCheckTimeout);
  }

  /**
   * @param idle how long an entity may go without a message before it is stopped; zero = never
   * @return a copy with that idle time
   */
  public ClusterShardingSettings withPassivateIdleAfter(Duration idle) {
    Objects.requireNonNull(idle, "idle");
    if (idle.isNegative()) {
      throw new IllegalArgumentException("passivate-idle-after must not be negative, was " + idle);
    }
    return new ClusterShardingSettings(numberOfShards, role, handOverTimeout, bufferSize,
        idle.isZero() ? Optional.empty() : Optional.of(idle), leaveCheckTimeout);
  }

  /**
   * @param timeout the hand-over timeout, positive
   * @return a copy with that timeout
   */
  public ClusterShardingSettings withHandOverTimeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("hand-over-timeout must be positive, was " + timeout);
    }
    return new ClusterShardingSettings(numberOfShards, role, timeout, bufferSize, passivateIdleAfter,
        leaveCheckTimeout);
  }

  /**
   * @param size the per-shard buffer size, at least 1
   * @return a copy with that size
   */
  public ClusterShardingSettings withBufferSize(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("buffer-size must be >= 1, was " + size);
    }
    return new ClusterShardingSettings(numberOfShards, role, handOverTimeout, size, passivateIdleAfter,
        leaveCheckTimeout);
  }

  @Override
  public String toString() {
    return "ClusterShardingSettings(number-of-shards = " + numberOfShards + ", role = " + role.orElse("")
        + ", hand-over-timeout = " + handOverTimeout + ", buffer-size = " + bufferSize
        + ", passivate-idle-after = " + passivateIdleAfter.map(Duration::toString).orElse("off")
        + ", leave-check-timeout = " + leaveCheckTimeout + ")";
  }

  private static ConfigurationException bad(String key, String why, Throwable cause) {
    return new ConfigurationException("invalid configuration value at '" + ROOT + "." + key + "': " + why, cause);
  }
}
