package dev.troupe.cluster.singleton;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.internal.singleton.SingletonConfig;
import com.typesafe.config.Config;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of a {@link ClusterSingletonManager}: an immutable value, read once from {@code
 * troupe.cluster.singleton} by {@link #create(ActorSystem)} and changed with the {@code with...}
 * methods.
 */
public final class ClusterSingletonManagerSettings {
  private final String singletonName;
  private final Optional<String> role;
  private final Duration handOverRetryInterval;
  private final int handOverRetries;
  private final Duration proxyPauseTimeout;

  private ClusterSingletonManagerSettings(String singletonName, Optional<String> role,
      Duration handOverRetryInterval, int handOverRetries, Duration proxyPauseTimeout) {
    this.singletonName = singletonName;
    this.role = role;
    this.handOverRetryInterval = handOverRetryInterval;
    this.handOverRetries = handOverRetries;
    this.proxyPauseTimeout = proxyPauseTimeout;
  }

  /**
   * @param system an actor system
   * @return the settings in its {@code troupe.cluster.singleton} section
   * @throws ConfigurationException naming the full key of a malformed value
   */
  public static ClusterSingletonManagerSettings create(ActorSystem system) {
    return create(system.settings().config());
  }

  /**
   * @param config a whole configuration (with the module's reference.conf as its fallback)
   * @return the settings in its {@code troupe.cluster.singleton} section
   * @throws ConfigurationException naming the full key of a malformed value
   */
  public static ClusterSingletonManagerSettings create(Config config) {
    SingletonConfig c = SingletonConfig.of(config);
    return new ClusterSingletonManagerSettings(c.singletonName(), c.role(),
        c.positiveDuration("hand-over-retry-interval"), c.intAtLeast("hand-over-retries", 1),
        c.positiveDuration("proxy-pause-timeout"));
  }

  /** @return the name of the singleton actor, a child of the manager ({@code singleton-name}) */
  public String singletonName() {
    return singletonName;
  }

  /** @return the role of the members the singleton runs on; empty = every member ({@code role}) */
  public Optional<String> role() {
    return role;
  }

  /**
   * @return how often a new owner asks a previous one to hand the singleton over ({@code
   *     hand-over-retry-interval})
   */
  public Duration handOverRetryInterval() {
    return handOverRetryInterval;
  }

  /**
   * @return how many times a new owner asks each previous one before it only waits for that one's
   *     hand-over or removal ({@code hand-over-retries})
   */
  public int handOverRetries() {
    return handOverRetries;
  }

  /**
   * @return the longest the old owner waits for the proxies it serves to stop forwarding before it
   *     sends the termination message anyway ({@code proxy-pause-timeout})
   */
  public Duration proxyPauseTimeout() {
    return proxyPauseTimeout;
  }

  /**
   * @param name the singleton actor's name under the manager
   * @return these settings with that name
   * @throws IllegalArgumentException if it is not a valid actor name
   */
  public ClusterSingletonManagerSettings withSingletonName(String name) {
    String why = SingletonConfig.nameProblem(name);
    if (why != null) {
      throw new IllegalArgumentException("singleton name " + why);
    }
    return new ClusterSingletonManagerSettings(name, role, handOverRetryInterval, handOverRetries, proxyPauseTimeout);
  }

  /**
   * @param role the role of the members the singleton runs on; null or "" = every member
   * @return these settings with that role
   */
  public ClusterSingletonManagerSettings withRole(String role) {
    return withRole(role == null || role.isEmpty() ? Optional.empty() : Optional.of(role));
  }

  /**
   * @param role the role of the members the singleton runs on; empty = every member
   * @return these settings with that role
   */
  public ClusterSingletonManagerSettings withRole(Optional<String> role) {
    Objects.requireNonNull(role, "role");
    return new ClusterSingletonManagerSettings(singletonName, role, handOverRetryInterval, handOverRetries,
        proxyPauseTimeout);
  }

  /**
   * @param interval how often a new owner asks a previous one to hand over, positive
   * @return these settings with that interval
   */
  public ClusterSingletonManagerSettings withHandOverRetryInterval(Duration interval) {
    return new ClusterSingletonManagerSettings(singletonName, role, positive(interval, "interval"),
        handOverRetries, proxyPauseTimeout);
  }

  /**
   * @param retries how many times a new owner asks each previous one, at least 1
   * @return these settings with that bound
   */
  public ClusterSingletonManagerSettings withHandOverRetries(int retries) {
    if (retries < 1) {
      throw new IllegalArgumentException("hand-over retries must be >= 1, was " + retries);
    }
    return new ClusterSingletonManagerSettings(singletonName, role, handOverRetryInterval, retries, proxyPauseTimeout);
  }

  /**
   * @param timeout the longest the old owner waits for its proxies to stop forwarding, positive
   * @return these settings with that timeout
   */
  public ClusterSingletonManagerSettings withProxyPauseTimeout(Duration timeout) {
    return new ClusterSingletonManagerSettings(singletonName, role, handOverRetryInterval, handOverRetries,
        positive(timeout, "timeout"));
  }

  static Duration positive(Duration d, String what) {
    Objects.requireNonNull(d, what);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive, was " + d);
    }
    return d;
  }

  @Override
  public String toString() {
    return "ClusterSingletonManagerSettings(singletonName=" + singletonName + ", role=" + role.orElse("")
        + ", handOverRetryInterval=" + handOverRetryInterval + ", handOverRetries=" + handOverRetries
        + ", proxyPauseTimeout=" + proxyPauseTimeout + ")";
  }
}
