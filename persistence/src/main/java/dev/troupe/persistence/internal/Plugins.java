package dev.troupe.persistence.internal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a plugin from a configuration section with a {@code class} key: journals, snapshot stores
 * and read journals alike. Every way it can fail is a {@link ConfigurationException} naming the key
 * to fix.
 */
public final class Plugins {
  private static final Logger LOG = LoggerFactory.getLogger(Plugins.class);

  private Plugins() {}

  /**
   * @param system the system the plugin serves
   * @param config the system's configuration
   * @param path the path of the plugin's section
   * @param kind what the plugin must be
   * @param what the kind of plugin, for messages ("persistence plugin")
   * @param <P> its type
   * @return a new plugin, made by its public constructor taking (ActorSystem, Config)
   * @throws ConfigurationException if the section, its class or its constructor is wrong, or the
   *     constructor threw
   */
  public static <P> P create(ActorSystem system, Config config, String path, Class<P> kind, String what) {
    Config section;
    String className;
    try {
      section = config.getConfig(path);
      className = section.getString("class");
    } catch (ConfigException e) {
      throw new ConfigurationException(what + " [" + path + "]: a section with a \"class\" key is needed: "
          + e.getMessage(), e);
    }
    Class<?> c;
    try {
      c = Class.forName(className, true, Plugins.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new ConfigurationException(path + ".class: no class " + className + " on the class path", e);
    }
    if (!kind.isAssignableFrom(c)) {
      throw new ConfigurationException(path + ".class: " + className + " is no " + kind.getName());
    }
    try {
      Constructor<?> k = c.getConstructor(ActorSystem.class, Config.class);
      P plugin = kind.cast(k.newInstance(system, section));
      LOG.debug("{} [{}] of system [{}]: {}", what, path, system.name(), className);
      return plugin;
    } catch (NoSuchMethodException e) {
      throw new ConfigurationException(path + ".class: " + className
          + " needs a public constructor taking (ActorSystem, Config)", e);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof ConfigurationException ce) {
        throw ce;
      }
      throw new ConfigurationException(path + ": " + className + " failed to start: " + cause, cause);
    } catch (ReflectiveOperationException e) {
      throw new ConfigurationException(path + ".class: cannot make " + className + ": " + e, e);
    }
  }
}
