package dev.troupe.remote.spi;

import dev.troupe.actor.ConfigurationException;
import dev.troupe.runtime.spi.ActorRefProviderFactory;
import dev.troupe.runtime.spi.RuntimeSystem;
import java.util.ServiceLoader;

/**
 * The wrapping point of the remote provider. A provider built on remoting (the cluster's) has a
 * factory of its own, found by the runtime like every provider (a class implementing the runtime's
 * {@code ActorRefProviderFactory}, by {@code ServiceLoader} or by name), whose {@code create}
 * makes the remote provider here and wraps it:
 *
 * <pre>{@code
 * public ActorRefProvider create(RuntimeSystem system) {
 *   RemoteProvider remote = RemoteProviders.create(system);
 *   return new ClusterProvider(remote); // delegates the provider's methods to remote
 * }
 * }</pre>
 *
 * The system then knows only the wrapping provider: it calls its {@code init} and {@code
 * shutdown}, which must call the remote provider's.
 */
public final class RemoteProviders {
  private RemoteProviders() {}

  /**
   * Makes the remote provider of {@code system}, as {@code troupe.actor.provider = remote} would:
   * reads {@code troupe.remote}, binds the transport (so that its address knows its port).
   *
   * @throws dev.troupe.actor.ConfigurationException on bad settings, naming the key, or when the
   *     address cannot be bound
   */
  public static RemoteProvider create(RuntimeSystem system) {
    // the factory remoting provides for "remote", found as the runtime finds it (this package
    // stays below the provider's: it names no class of remoting's internals)
    for (ActorRefProviderFactory f : ServiceLoader.load(ActorRefProviderFactory.class, RemoteProviders.class.getClassLoader())) {
      if (f.name().equals("remote") && f.getClass().getModule() == RemoteProviders.class.getModule()) {
        return (RemoteProvider) f.create(system);
      }
    }
    throw new ConfigurationException("remoting's provider factory was not found (is META-INF/services of troupe-remoting on the class path?)");
  }
}
