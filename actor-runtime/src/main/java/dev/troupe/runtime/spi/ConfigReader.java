package dev.troupe.runtime.spi;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ConfigurationException;
import java.time.Duration;

/**
 * Typed reads of configuration values that name the full key when a value is missing or malformed
 * (a {@link ConfigurationException}); used once, when a settings record is parsed, by the runtime
 * and by the modules that plug into it.
 */
public final class ConfigReader {
  private ConfigReader() {}

  private static String key(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private static ConfigurationException bad(String path, String key, String why, Throwable cause) {
    return new ConfigurationException(
        "invalid configuration value at '" + key(path, key) + "': " + why, cause);
  }

  /**
   * @param c the section
   * @param path the section's path
   * @param key the key
   * @return the string value
   */
  public static String string(Config c, String path, String key) {
    try {
      return c.getString(key);
    } catch (ConfigException e) {
      throw bad(path, key, e.getMessage(), e);
    }
  }

  /**
   * @param c the section
   * @param path the section's path
   * @param key the key
   * @return the boolean value
   */
  public static boolean bool(Config c, String path, String key) {
    try {
      return c.getBoolean(key);
    } catch (ConfigException e) {
      throw bad(path, key, e.getMessage(), e);
    }
  }

  /**
   * @param c the section
   * @param path the section's path
   * @param key the key
   * @param min the smallest allowed value
   * @return the int value
   */
  public static int intAtLeast(Config c, String path, String key, int min) {
    int v;
    try {
      v = c.getInt(key);
    } catch (ConfigException e) {
      throw bad(path, key, e.getMessage(), e);
    }
    if (v < min) {
      throw bad(path, key, "must be >= " + min + ", was " + v, null);
    }
    return v;
  }

  /**
   * @param c the section
   * @param path the section's path
   * @param key the key
   * @param min the smallest allowed value
   * @return the double value
   */
  public static double doubleAtLeast(Config c, String path, String key, double min) {
    double v;
    try {
      v = c.getDouble(key);
    } catch (ConfigException e) {
      throw bad(path, key, e.getMessage(), e);
    }
    if (!(v >= min)) {
      throw bad(path, key, "must be >= " + min + ", was " + v, null);
    }
    return v;
  }

  /**
   * @param c the section
   * @param path the section's path
   * @param key the key
   * @return the duration, zero or positive
   */
  public static Duration durationAtLeastZero(Config c, String path, String key) {
    Duration d;
    try {
      d = c.getDuration(key);
    } catch (ConfigException e) {
      throw bad(path, key, e.getMessage(), e);
    }
    if (d.isNegative()) {
      throw bad(path, key, "must not be negative, was " + d, null);
    }
    return d;
  }

  /**
   * Scales a thread count by the number of cores.
   *
   * @param c the section
   * @param path its path
   * @param prefix e.g. {@code parallelism} for {@code parallelism-min/-factor/-max}
   * @return {@code clamp(ceil(cores * factor), min, max)}
   */
  public static int scaledPoolSize(Config c, String path, String prefix) {
    int min = intAtLeast(c, path, prefix + "-min", 1);
    double factor = doubleAtLeast(c, path, prefix + "-factor", 0.0);
    if (factor == 0.0 || Double.isInfinite(factor)) {
      throw bad(path, prefix + "-factor", "must be finite and > 0, was " + factor, null);
    }
    int max = intAtLeast(c, path, prefix + "-max", 1);
    if (min > max) {
      throw bad(path, prefix + "-min", "must be <= " + prefix + "-max (" + max + "), was " + min, null);
    }
    return dev.troupe.executors.Parallelism.scaled(min, factor, max); // validated above, key by key
  }
}
