package dev.troupe.cluster.singleton;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.internal.singleton.SingletonConfig;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of a {@link ClusterSingletonProxy}: an immutable value read once by {@link
 * #create(ActorSystem)}. The singleton's name and role come from {@code troupe.cluster.singleton}
 * (the same keys as the manager's, so that both agree by default); the proxy's own keys are in
 * {@code troupe.cluster.singleton.proxy}.
 */
public final class ClusterSingletonProxySettings {
  private final String singletonName;
  private final Optional<String> role;
  private final int bufferSize;
  private final Duration identificationInterval;

  private ClusterSingletonProxySettings(String singletonName, Optional<String> role, int bufferSize,
      Duration identificationInterval) {
    this.singletonName = singletonName;
    this.role = role;
    this.bufferSize = bufferSize;
    this.identificationInterval = identificationInterval;
  }

  /**
   * @param system an actor system
   * @return the settings in its configuration
   * @throws ConfigurationException naming the full key of a malformed value
   */
  public static ClusterSingletonProxySettings create(ActorSystem system) {
    return create(system.settings().config());
  }

  /**
   * @param config a whole configuration (with the module's reference.conf as its fallback)
   * @return the settings in it
   * @throws ConfigurationException naming the full key of a malformed value
   */
  public static ClusterSingletonProxySettings create(Config config) {
    SingletonConfig c = SingletonConfig.of(config);
    return new ClusterSingletonProxySettings(c.singletonName(), c.role(), c.intAtLeast("proxy.buffer-size", 0),
        c.positiveDuration("proxy.identification-interval"));
  }

  /** @return the singleton actor's name under its manager ({@code singleton-name}) */
  public String singletonName() {
    return singletonName;
  }

  /** @return the role of the members the singleton runs on; empty = every member ({@code role}) */
  public Optional<String> role() {
    return role;
  }

  /**
   * @return how many messages the proxy holds while the singleton is unknown or moving; beyond
   *     that the oldest is dropped ({@code proxy.buffer-size}; 0 = none are held)
   */
  public int bufferSize() {
    return bufferSize;
  }

  /**
   * @return how often the proxy asks the oldest member's manager for the singleton while it has
   *     none ({@code proxy.identification-interval})
   */
  public Duration identificationInterval() {
    return identificationInterval;
  }

  /**
   * @param name the singleton actor's name under its manager
   * @return these settings with that name
   * @throws IllegalArgumentException if it is not a valid actor name
   */
  public ClusterSingletonProxySettings withSingletonName(String name) {
    String why = SingletonConfig.nameProblem(name);
    if (why != null) {
      throw new IllegalArgumentException("singleton name " + why);
    }
    return new ClusterSingletonProxySettings(name, role, bufferSize, identificationInterval);
  }

  /**
   * @param role the role of the members the singleton runs on; null or "" = every member
   * @return these settings with that role
   */
  public ClusterSingletonProxySettings withRole(String role) {
    return withRole(role == null || role.isEmpty() ? Optional.empty() : Optional.of(role));
  }

  /**
   * @param role the role of the members the singleton runs on; empty = every member
   * @return these settings with that role
   */
  public ClusterSingletonProxySettings withRole(Optional<String> role) {
    Objects.requireNonNull(role, "role");
    return new ClusterSingletonProxySettings(singletonName, role, bufferSize, identificationInterval);
  }

  /**
   * @param size how many messages to hold while the singleton is unknown, at least 0
   * @return these settings with that buffer size
   */
  public ClusterSingletonProxySettings withBufferSize(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("buffer size must be >= 0, was " + size);
    }
    return new ClusterSingletonProxySettings(singletonName, role, size, identificationInterval);
  }

  /**
   * @param interval how often to look for the singleton while it is unknown, positive
   * @return these settings with that interval
   */
  public ClusterSingletonProxySettings withIdentificationInterval(Duration interval) {
    return new ClusterSingletonProxySettings(singletonName, role, bufferSize,
        ClusterSingletonManagerSettings.positive(interval, "interval"));
  }

  @Override
  public String toString() {
    return "ClusterSingletonProxySettings(singletonName=" + singletonName + ", role=" + role.orElse("")
        + ", bufferSize=" + bufferSize + ", identificationInterval=" + identificationInterval + ")";
  }
}
