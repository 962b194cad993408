package dev.troupe.actor.internal;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.spi.ActorSystemProvider;

/** The runtime's {@link ActorSystemProvider}, found by {@link java.util.ServiceLoader}. */
public final class TroupeRuntimeProvider implements ActorSystemProvider {
  /** For the service loader. */
  public TroupeRuntimeProvider() {}

  @Override
  public ActorSystem create(String name, Config config) {
    return new ActorSystemImpl(name, config);
  }
}
