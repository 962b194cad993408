package dev.troupe.cluster.internal.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.runtime.spi.ConfigReader;
import java.time.Duration;
import java.util.Optional;

/**
 * The reads the cluster's settings need beyond the runtime's {@link ConfigReader} (which they use
 * for strings, booleans and counts): a section, a positive duration, and {@code off} or a positive
 * duration. Like {@link ConfigReader}, every malformed value is a {@link ConfigurationException}
 * naming the full key, {@code invalid configuration value at 'path.key': why}.
 */
public final class ClusterConfig {
  private ClusterConfig() {}

  /**
   * @param config a whole configuration
   * @param path the section's full path, e.g. {@code troupe.cluster}
   * @return the section
   * @throws ConfigurationException naming {@code path} when it is missing or not an object
   */
  public static Config section(Config config, String path) {
    try {
      return config.getConfig(path);
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid configuration value at '" + path + "': " + e.getMessage(), e);
    }
  }

  /**
   * @param c the section
   * @param path the section's path
   * @param key the key
   * @return the duration, longer than zero
   */
  public static Duration positiveDuration(Config c, String path, String key) {
    Duration d = ConfigReader.durationAtLeastZero(c, path, key);
    if (d.isZero()) {
      throw bad(path, key, "must be positive, was " + d);
    }
    return d;
  }

  /**
   * @param c the section
   * @param path the section's path
   * @param key the key
   * @param example a duration the error message shows, e.g. {@code 30s}
   * @return empty for {@code off} (or {@code false}), else the duration, longer than zero
   */
  public static Optional<Duration> offOrPositiveDuration(Config c, String path, String key, String example) {
    ConfigValue v;
    try {
      v = c.getValue(key);
    } catch (ConfigException e) {
      throw new ConfigurationException(message(path, key, e.getMessage()), e);
    }
    if ((v.valueType() == ConfigValueType.BOOLEAN && !((Boolean) v.unwrapped()))
        || (v.valueType() == ConfigValueType.STRING && "off".equalsIgnoreCase(((String) v.unwrapped()).trim()))) {
      return Optional.empty();
    }
    Duration d;
    try {
      d = c.getDuration(key);
    } catch (ConfigException e) {
      throw new ConfigurationException(message(path, key, "expected off or a duration such as " + example + ": "
          + e.getMessage()), e);
    }
    if (d.isNegative() || d.isZero()) {
      throw bad(path, key, "expected off or a positive duration, was " + d);
    }
    return Optional.of(d);
  }

  /**
   * @param path the section's path
   * @param key the key
   * @param why what is wrong with its value
   * @return the exception naming the full key
   */
  public static ConfigurationException bad(String path, String key, String why) {
    return new ConfigurationException(message(path, key, why));
  }

  private static String message(String path, String key, String why) {
    return "invalid configuration value at '" + path + "." + key + "': " + why;
  }
}
