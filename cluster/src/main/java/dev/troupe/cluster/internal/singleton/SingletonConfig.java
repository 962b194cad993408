package dev.troupe.cluster.internal.singleton;

import com.typesafe.config.Config;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.internal.config.ClusterConfig;
import dev.troupe.runtime.spi.ConfigReader;
import java.time.Duration;
import java.util.Optional;

/**
 * Reads {@code troupe.cluster.singleton}, the one section both singleton settings classes come
 * from: every malformed value is a {@link ConfigurationException} naming the full key.
 */
public final class SingletonConfig {
  /** The section of the manager's settings; the proxy's own keys are under {@code .proxy}. */
  public static final String ROOT = "troupe.cluster.singleton";

  private final Config section;

  private SingletonConfig(Config section) {
    this.section = section;
  }

  /**
   * @param config an actor system's whole configuration
   * @return a reader of its {@code troupe.cluster.singleton} section
   * @throws ConfigurationException if the section is missing or not an object
   */
  public static SingletonConfig of(Config config) {
    return new SingletonConfig(ClusterConfig.section(config, ROOT));
  }

  /** @return {@code singleton-name}, a valid actor name */
  public String singletonName() {
    String name = string("singleton-name");
    String why = nameProblem(name);
    if (why != null) {
      throw bad("singleton-name", why);
    }
    return name;
  }

  /** @return {@code role}; empty when it is {@code ""} (every member) */
  public Optional<String> role() {
    String role = string("role");
    if (role.isEmpty()) {
      return Optional.empty();
    }
    if (!role.strip().equals(role)) {
      throw bad("role", "a role is a name without surrounding spaces, was '" + role + "'");
    }
    return Optional.of(role);
  }

  /**
   * @param key a key relative to the section
   * @return its value, a positive duration
   */
  public Duration positiveDuration(String key) {
    return ClusterConfig.positiveDuration(section, ROOT, key);
  }

  /**
   * @param key a key relative to the section
   * @param min the least value allowed
   * @return its value
   */
  public int intAtLeast(String key, int min) {
    return ConfigReader.intAtLeast(section, ROOT, key, min);
  }

  private String string(String key) {
    return ConfigReader.string(section, ROOT, key);
  }

  /**
   * @param name a proposed child actor name
   * @return why it cannot name the singleton child, or null when it can
   */
  public static String nameProblem(String name) {
    if (name == null || name.isEmpty()) {
      return "must be a non-empty actor name";
    }
    if (name.startsWith("$") || !dev.troupe.actor.ActorPath.isValidPathElement(name)) {
      return "'" + name + "' is not a valid actor name";
    }
    return null;
  }

  private static ConfigurationException bad(String key, String why) {
    return ClusterConfig.bad(ROOT, key, why);
  }
}
