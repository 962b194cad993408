package dev.troupe.actor.typed.delivery.internal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ConfigurationException;
import java.time.Duration;
import java.util.Objects;

/**
 * Reads the controllers' settings from one section of a configuration; a missing or malformed value
 * is a {@link ConfigurationException} that names the full key.
 */
public final class SettingsReader {
  private final Config section;
  private final String path;

  /**
   * @param section the controller's section
   * @param path the section's full path, for the messages
   */
  public SettingsReader(Config section, String path) {
    this.section = Objects.requireNonNull(section, "section");
    this.path = Objects.requireNonNull(path, "path");
  }

  private ConfigurationException bad(String key, String why, Throwable cause) {
    return new ConfigurationException("invalid configuration value at '" + path + "." + key + "': " + why, cause);
  }

  /**
   * @param key the key in the section
   * @return its duration, greater than zero
   */
  public Duration positiveDuration(String key) {
    Duration d;
    try {
      d = section.getDuration(key);
    } catch (ConfigException e) {
      throw bad(key, "expected a duration such as 1s: " + e.getMessage(), e);
    }
    if (d.isNegative() || d.isZero()) {
      throw bad(key, "must be greater than zero, was " + d, null);
    }
    return d;
  }

  /**
   * @param key the key in the section
   * @param min the smallest allowed value
   * @return its whole number
   */
  public int intAtLeast(String key, int min) {
    int v;
    try {
      v = section.getInt(key);
    } catch (ConfigException e) {
      throw bad(key, "expected a whole number: " + e.getMessage(), e);
    }
    if (v < min) {
      throw bad(key, "must be at least " + min + ", was " + v, null);
    }
    return v;
  }

  /**
   * @param key the key in the section
   * @return its boolean
   */
  public boolean bool(String key) {
    try {
      return section.getBoolean(key);
    } catch (ConfigException e) {
      throw bad(key, "expected true or false: " + e.getMessage(), e);
    }
  }

  /**
   * @param minKey the key of the smaller duration
   * @param min its value
   * @param maxKey the key of the larger one
   * @param max its value
   */
  public void ordered(String minKey, Duration min, String maxKey, Duration max) {
    if (max.compareTo(min) < 0) {
      throw bad(maxKey, "must be at least " + path + "." + minKey + " (" + min + "), was " + max, null);
    }
  }

  /**
   * @param what the value's name, for the message
   * @param d a duration
   * @return {@code d}, when greater than zero
   * @throws IllegalArgumentException otherwise
   */
  public static Duration requirePositive(String what, Duration d) {
    Objects.requireNonNull(d, what);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be greater than zero, was " + d);
    }
    return d;
  }
}
