package dev.troupe.remote.internal;

import dev.troupe.runtime.spi.ActorRefProvider;
import dev.troupe.runtime.spi.ActorRefProviderFactory;
import dev.troupe.runtime.spi.RuntimeSystem;

/**
 * {@code troupe.actor.provider = remote}, found by the runtime with {@code ServiceLoader}
 * (META-INF/services on the class path, {@code provides} on the module path).
 */
public final class RemoteProviderFactory implements ActorRefProviderFactory {
  /** For {@code ServiceLoader}. */
  public RemoteProviderFactory() {}

  @Override
  public String name() {
    return "remote";
  }

  @Override
  public ActorRefProvider create(RuntimeSystem system) {
    return new RemoteActorRefProvider(system);
  }
}
