package dev.troupe.cluster.management;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The settings of {@link ClusterHttpManagement}, from {@value #PATH}: where it listens, whether it
 * may change membership, and the bounds on its connections. Immutable.
 *
 * @param hostname the interface to listen on
 * @param port the TCP port, 0 to 65535 (0 = ephemeral)
 * @param readOnly whether only GET routes are served
 * @param maxConnections the most connections open at once, at least 1
 * @param idleTimeout how long a connection may go without a complete request, positive
 */
public record ClusterHttpManagementSettings(String hostname, int port, boolean readOnly, int maxConnections,
    Duration idleTimeout) {
  /** The configuration section these settings are read from. */
  public static final String PATH = "troupe.cluster.management.http";

  /** Checks each value. */
  public ClusterHttpManagementSettings {
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    if (hostname.isBlank()) {
      throw new IllegalArgumentException("hostname must not be blank");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0 to 65535, was " + port);
    }
    if (maxConnections < 1) {
      throw new IllegalArgumentException("max-connections must be at least 1, was " + maxConnections);
    }
    if (idleTimeout.isNegative() || idleTimeout.isZero()) {
      throw new IllegalArgumentException("idle-timeout must be positive, was " + idleTimeout);
    }
  }

  /**
   * @param system an actor system
   * @return the settings in its configuration
   * @throws ConfigurationException if a value is malformed, naming its full key
   */
  public static ClusterHttpManagementSettings create(ActorSystem system) {
    return fromConfig(Objects.requireNonNull(system, "system").settings().config());
  }

  /**
   * @param config a whole configuration, holding {@value #PATH}
   * @return the settings it holds
   * @throws ConfigurationException if a value is malformed, naming its full key
   */
  public static ClusterHttpManagementSettings fromConfig(Config config) {
    String hostname = read(config, "hostname", () -> config.getString(PATH + ".hostname"));
    int port = read(config, "port", () -> config.getInt(PATH + ".port"));
    boolean readOnly = read(config, "read-only", () -> config.getBoolean(PATH + ".read-only"));
    int max = read(config, "max-connections", () -> config.getInt(PATH + ".max-connections"));
    Duration idle = read(config, "idle-timeout", () -> config.getDuration(PATH + ".idle-timeout"));
    try {
      return new ClusterHttpManagementSettings(hostname, port, readOnly, max, idle);
    } catch (IllegalArgumentException e) {
      String key = e.getMessage().startsWith("max-connections") ? "max-connections"
          : e.getMessage().startsWith("idle-timeout") ? "idle-timeout"
          : e.getMessage().startsWith("port") ? "port" : "hostname";
      throw new ConfigurationException("invalid value at " + PATH + "." + key + ": " + e.getMessage(), e);
    }
  }

  private static <T> T read(Config config, String key, Supplier<T> value) {
    try {
      return value.get();
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid value at " + PATH + "." + key + ": " + e.getMessage(), e);
    }
  }

  /**
   * @param newPort the TCP port, 0 = ephemeral
   * @return a copy with that port
   */
  public ClusterHttpManagementSettings withPort(int newPort) {
    return new ClusterHttpManagementSettings(hostname, newPort, readOnly, maxConnections, idleTimeout);
  }

  /**
   * @param newReadOnly whether only GET routes are served
   * @return a copy with that choice
   */
  public ClusterHttpManagementSettings withReadOnly(boolean newReadOnly) {
    return new ClusterHttpManagementSettings(hostname, port, newReadOnly, maxConnections, idleTimeout);
  }
}
