package dev.troupe.persistence.internal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.serialization.Serialization;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a plugin takes from its system: its configuration section, read key by key (every
 * missing or malformed value is a {@link ConfigurationException} naming its full key), its IO
 * thread, and the system's serializers, looked up on first use (not while the plugin is made).
 *
 * <p>A section of the user's own (a plugin id other than the default path) needs only the keys it
 * changes: the others come from the default section. The section's own path is not handed to a
 * plugin, so it is found again in the system's configuration (the section is one of its objects)
 * when a message needs it; a section made elsewhere is named by its key and the default path.
 */
public final class PluginContext {
  private final ActorSystem system;
  private final Config given;
  private final Config section;
  private final String defaultPath;
  private final String plugin;
  private volatile Serialization serialization;

  /**
   * @param system the system whose configuration holds the section
   * @param section the section the plugin was made with
   * @param defaultPath the path of the plugin's section in {@code reference.conf}
   * @param plugin the plugin's class, for messages
   */
  public PluginContext(ActorSystem system, Config section, String defaultPath, Class<?> plugin) {
    this.system = system;
    this.given = section;
    this.defaultPath = defaultPath;
    this.plugin = plugin.getSimpleName();
    Config all = system.settings().config();
    try {
      this.section = section.withFallback(all.hasPath(defaultPath) ? all.getConfig(defaultPath) : ConfigFactory.empty());
    } catch (ConfigException e) {
      throw new ConfigurationException(defaultPath + " must be a section: " + e.getMessage(), e);
    }
  }

  /** @return the system's serializers */
  public Serialization serialization() {
    Serialization s = serialization;
    if (s == null) {
      s = Serialization.get(system);
      serialization = s;
    }
    return s;
  }

  /**
   * @param dir the plugin's directory
   * @return the plugin's owner name for its threads' messages: its class, system and directory
   */
  public String owner(Path dir) {
    return plugin + " of system [" + system.name() + "] in " + dir;
  }

  /** @return the system the plugin serves */
  public ActorSystem system() {
    return system;
  }

  /** @return the directory of the plugin's files ({@code dir}), absolute */
  public Path dir() {
    String value = read("dir", section::getString);
    if (value.isBlank()) {
      throw new ConfigurationException(key("dir") + " is empty: name the directory of the files");
    }
    try {
      return Path.of(value).toAbsolutePath();
    } catch (InvalidPathException e) {
      throw new ConfigurationException(key("dir") + " is no path on this file system: " + e.getMessage(), e);
    }
  }

  /**
   * @param name a key of the section
   * @return its value, a boolean ({@code on}, {@code off}, {@code true}, ...)
   */
  public boolean flag(String name) {
    return read(name, section::getBoolean);
  }

  /**
   * @param name a key of the section
   * @param max the largest size allowed
   * @return its value, a size in bytes ({@code 16 MiB}) from 1 to {@code max}
   */
  public long size(String name, long max) {
    long v = read(name, section::getBytes);
    if (v < 1 || v > max) {
      throw new ConfigurationException(key(name) + " must be a size from 1 byte to " + max + " bytes, was " + v);
    }
    return v;
  }

  /**
   * @param name a key of the section
   * @return its value, a whole number of at least 1
   */
  public int count(String name) {
    int v = read(name, section::getInt);
    if (v < 1) {
      throw new ConfigurationException(key(name) + " must be at least 1, was " + v);
    }
    return v;
  }

  /**
   * @param name a key of the section
   * @return its value, a string (possibly empty)
   */
  public String string(String name) {
    return read(name, section::getString);
  }

  /**
   * @param name a key of the section
   * @return its value, a positive duration ({@code 1s})
   */
  public java.time.Duration duration(String name) {
    java.time.Duration d = read(name, section::getDuration);
    if (d.isNegative() || d.isZero()) {
      throw new ConfigurationException(key(name) + " must be positive, was " + d);
    }
    return d;
  }

  private interface Getter<T> {
    T get(String name);
  }

  private <T> T read(String name, Getter<T> getter) {
    try {
      return getter.get(name);
    } catch (ConfigException e) {
      throw new ConfigurationException(key(name) + ": " + e.getMessage(), e);
    }
  }

  /**
   * @param name a key of the section
   * @return its full path, or where the section cannot be found, the key and the default path
   */
  public String key(String name) {
    String path = find(system.settings().config().root(), given.root(), new ArrayList<>());
    return path != null
        ? path + "." + name
        : name + " (in the section of " + plugin + ", by default " + defaultPath + "." + name + ")";
  }

  private static String find(ConfigObject in, ConfigObject target, List<String> at) {
    for (Map.Entry<String, ConfigValue> e : in.entrySet()) {
      if (e.getValue() instanceof ConfigObject child) {
        at.add(e.getKey());
        String found = child == target ? ConfigUtil.joinPath(at) : find(child, target, at);
        if (found != null) {
          return found;
        }
        at.remove(at.size() - 1);
      }
    }
    return null;
  }
}
