package dev.troupe.cluster.internal.singleton;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ConfigurationException;
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
    try {
      return new SingletonConfig(config.getConfig(ROOT));
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid configuration value at '" + ROOT + "': " + e.getMessage(), e);
    }
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
    Duration d;
    try {
      d = section.getDuration(key);
    } catch (ConfigException e) {
      throw bad(key, e.getMessage());
    }
    if (d.isNegative() || d.isZero()) {
      throw bad(key, "must be positive, was " + d);
    }
    return d;
  }

  /**
   * @param key a key relative to the section
   * @param min the least value allowed
   * @return its value
   */
  public int intAtLeast(String key, int min) {
    int v;
    try {
      v = section.getInt(key);
    } catch (ConfigException e) {
      throw bad(key, e.getMessage());
    }
    if (v < min) {
      throw bad(key, "must be >= " + min + ", was " + v);
    }
    return v;
  }

  private String string(String key) {
    try {
      return section.getString(key);
    } catch (ConfigException e) {
      throw bad(key, e.getMessage());
    }
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
    return new ConfigurationException("invalid configuration value at '" + ROOT + "." + key + "': " + why);
  }
}
