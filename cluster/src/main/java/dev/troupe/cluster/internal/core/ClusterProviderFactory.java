package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.ClusterSettings;
import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.cluster.spi.MembershipProviderFactory;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.remote.spi.RemoteProvider;
import dev.troupe.remote.spi.RemoteProviders;
import dev.troupe.runtime.spi.ActorRefProvider;
import dev.troupe.runtime.spi.ActorRefProviderFactory;
import dev.troupe.runtime.spi.RuntimeSystem;
import com.typesafe.config.Config;
import java.lang.reflect.InvocationTargetException;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * {@code troupe.actor.provider = cluster}: reads {@code troupe.cluster} (every malformed value
 * fails here, naming its key, before anything is bound), makes the remote provider and wraps it in
 * a {@link ClusterProvider} with the membership engine that {@code
 * troupe.cluster.membership.provider} names.
 */
public final class ClusterProviderFactory implements ActorRefProviderFactory {
  /** The value of {@code troupe.actor.provider} this factory answers to. */
  public static final String NAME = "cluster";

  /** For {@link ServiceLoader}. */
  public ClusterProviderFactory() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ActorRefProvider create(RuntimeSystem system) {
    Config config = system.actorSystem().settings().config();
    String name = system.actorSystem().name();
    ClusterSettings settings = ClusterSettings.from(config, name);
    MembershipProviderFactory engines = engineFactory(settings.membershipProvider());
    RemoteProvider remote = RemoteProviders.create(system);
    MembershipProvider engine;
    try {
      UniqueAddress self = new UniqueAddress(remote.address(), remote.uid());
      engine = engines.create(new MembershipContext(self, settings.roles(), name, settings.heartbeatInterval(),
          settings.acceptableHeartbeatPause(), config.getConfig(ClusterSettings.ROOT), RemoteTls.from(config)));
      if (engine == null) {
        throw new ConfigurationException(ClusterSettings.ROOT + ".membership.provider = "
            + settings.membershipProvider() + ": the engine's factory returned null");
      }
    } catch (RuntimeException | Error e) {
      try {
        remote.shutdown();
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    return new ClusterProvider(system, remote, settings, engine);
  }

  /** The engine by registered name, or by the class name of its factory. */
  static MembershipProviderFactory engineFactory(String value) {
    String key = ClusterSettings.ROOT + ".membership.provider";
    try {
      for (MembershipProviderFactory f : ServiceLoader.load(MembershipProviderFactory.class,
          ClusterProviderFactory.class.getClassLoader())) {
        if (f.name().equals(value)) {
          return f;
        }
      }
    } catch (ServiceConfigurationError e) {
      throw new ConfigurationException("invalid configuration value at '" + key + "': " + e.getMessage(), e);
    }
    if (value.indexOf('.') < 0) {
      throw new ConfigurationException("invalid configuration value at '" + key + "': no membership engine named '"
          + value + "' (jgroups, in-memory, or the class name of a " + MembershipProviderFactory.class.getName() + ")");
    }
    try {
      Class<?> c = Class.forName(value, true, ClusterProviderFactory.class.getClassLoader());
      if (!MembershipProviderFactory.class.isAssignableFrom(c)) {
        throw new ConfigurationException("invalid configuration value at '" + key + "': " + value
            + " does not implement " + MembershipProviderFactory.class.getName());
      }
      return (MembershipProviderFactory) c.getConstructor().newInstance();
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigurationException("invalid configuration value at '" + key + "': class " + value + " not found", e);
    } catch (InvocationTargetException e) {
      throw new ConfigurationException(key + " = " + value + ": its constructor failed: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new ConfigurationException(key + " = " + value + ": needs a public no-argument constructor (" + e + ")", e);
    }
  }
}
