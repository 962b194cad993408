package dev.troupe.actor.internal;

import dev.troupe.runtime.spi.ActorRefProvider;
import dev.troupe.runtime.spi.ActorRefProviderFactory;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import java.lang.reflect.InvocationTargetException;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Turns {@code troupe.actor.provider} into the system's {@link ActorRefProvider}. */
final class Providers {
  static final String KEY = "troupe.actor.provider";
  static final String REMOTING_ARTIFACT = "dev.troupe:troupe-remoting";
  static final String CLUSTER_ARTIFACT = "dev.troupe:troupe-cluster";

  private Providers() {}

  static ActorRefProvider create(String value, ActorSystemImpl system) {
    ActorRefProvider p = factory(value).create(system);
    if (p == null) {
      throw new ConfigurationException(KEY + " = " + value + ": the provider factory returned null");
    }
    return p;
  }

  /**
   * The engine's local half of {@code p}: what {@link RuntimeSystem#newLocalProvider} built.
   *
   * @throws ConfigurationException (after shutting {@code p} down) if the provider's {@code
   *     local()} is anything else
   */
  static LocalActorRefProviderImpl localHalf(ActorRefProvider p, String value) {
    if (p.local() instanceof LocalActorRefProviderImpl l) {
      return l;
    }
    p.shutdown();
    throw new ConfigurationException(
        KEY + " = " + value + ": the provider's local() must be the local provider built with RuntimeSystem.newLocalProvider,"
            + " was " + p.local());
  }

  private static ActorRefProviderFactory factory(String value) {
    if (value.equals("local")) {
      return new LocalFactory();
    }
    if (value.equals("remote") || value.equals("cluster")) {
      return byName(value);
    }
    if (value.indexOf('.') < 0) {
      throw new ConfigurationException(
          "invalid configuration value at '" + KEY + "': expected local, remote, cluster or the name of a class implementing "
              + ActorRefProviderFactory.class.getName() + ", was '" + value + "'");
    }
    return byClass(value);
  }

  private static ActorRefProviderFactory byName(String name) {
    try {
      for (ActorRefProviderFactory f : ServiceLoader.load(ActorRefProviderFactory.class, loader())) {
        if (name.equals(f.name())) {
          return f;
        }
      }
    } catch (ServiceConfigurationError e) {
      throw new ConfigurationException(KEY + " = " + name + ": the provider could not be loaded: " + e.getMessage(), e);
    }
    throw new ConfigurationException(
        KEY + " = " + name + " needs the module " + (name.equals("cluster") ? CLUSTER_ARTIFACT : REMOTING_ARTIFACT)
            + " on the class path (or module path), and it was not found; add the dependency or set "
            + KEY + " = local");
  }

  private static ActorRefProviderFactory byClass(String className) {
    Class<?> c;
    try {
      c = Class.forName(className, true, loader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigurationException(
          "invalid configuration value at '" + KEY + "': class " + className + " not found", e);
    }
    if (!ActorRefProviderFactory.class.isAssignableFrom(c)) {
      throw new ConfigurationException(
          "invalid configuration value at '" + KEY + "': " + className + " does not implement "
              + ActorRefProviderFactory.class.getName());
    }
    try {
      return (ActorRefProviderFactory) c.getConstructor().newInstance();
    } catch (InvocationTargetException e) {
      throw new ConfigurationException(KEY + " = " + className + ": its constructor failed: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new ConfigurationException(
          KEY + " = " + className + ": needs a public no-argument constructor (" + e + ")", e);
    }
  }

  private static ClassLoader loader() {
    ClassLoader l = Thread.currentThread().getContextClassLoader();
    return l != null ? l : Providers.class.getClassLoader();
  }

  /** {@code local}: this JVM only. */
  private static final class LocalFactory implements ActorRefProviderFactory {
    @Override
    public String name() {
      return "local";
    }

    @Override
    public ActorRefProvider create(RuntimeSystem system) {
      return system.newLocalProvider(Address.local(system.actorSystem().name()));
    }
  }
}
