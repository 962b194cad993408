package dev.troupe.remote.internal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.runtime.spi.ConfigReader;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code troupe.remote.deployment}: whether this node accepts actors that other nodes deploy onto
 * it, and which classes. Read once, with the provider; every problem is a {@link
 * ConfigurationException} naming the key.
 *
 * @param enabled whether deployment requests are accepted at all
 * @param allowedClasses the fully qualified names of the actor classes that may be deployed here
 */
record DeploymentSettings(boolean enabled, Set<String> allowedClasses) {
  static final String PATH = RemoteSettings.ROOT + ".deployment";

  static DeploymentSettings from(Config config) {
    Config d;
    try {
      d = config.getConfig(PATH);
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid configuration value at '" + PATH + "': " + e.getMessage(), e);
    }
    boolean enabled = ConfigReader.bool(d, PATH, "enabled");
    List<String> names;
    try {
      names = d.getStringList("allowed-classes");
    } catch (ConfigException e) {
      throw new ConfigurationException(
          "invalid configuration value at '" + PATH + ".allowed-classes': expected a list of fully qualified class"
              + " names: " + e.getMessage(),
          e);
    }
    Set<String> allowed = new LinkedHashSet<>();
    for (String n : names) {
      String name = n.trim();
      if (name.isEmpty() || name.chars().anyMatch(c -> Character.isWhitespace(c) || c == '/' || c == '*')) {
        throw new ConfigurationException(
            "invalid configuration value at '" + PATH + ".allowed-classes': '" + n + "' is not a fully qualified"
                + " class name (e.g. \"com.example.Worker\", a nested class as \"com.example.Outer$Worker\";"
                + " no wildcards)");
      }
      allowed.add(name);
    }
    return new DeploymentSettings(enabled, Set.copyOf(allowed));
  }

  /** @return whether {@code className} may be deployed here (enabled, and on the list) */
  boolean allows(String className) {
    return enabled && allowedClasses.contains(className);
  }
}
