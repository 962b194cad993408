package dev.troupe.remote.internal.provider;

import dev.troupe.remote.internal.association.FailureInjector;
import dev.troupe.runtime.spi.ActorRefProvider;

/**
 * Where tests find a node's {@link FailureInjector}: from remoting's provider, as a provider built
 * on it (the cluster's) holds it. Not exported; test code reaches it on the class path.
 */
public final class FailureInjectors {
  private FailureInjectors() {}

  /**
   * @param remote remoting's provider (for a cluster node, the one the cluster's provider wraps)
   * @return its failure injector, or null when {@code troupe.remote.advanced.failure-injector} is
   *     off or {@code remote} is not remoting's provider
   */
  public static FailureInjector of(ActorRefProvider remote) {
    return remote instanceof RemoteActorRefProvider r ? r.associations().failureInjector() : null;
  }
}
