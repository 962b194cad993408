package dev.troupe.actor.spi;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;

/**
 * Service-provider interface of the runtime: {@link ActorSystem#create(String, Config)} finds an
 * implementation with {@link java.util.ServiceLoader}. Not for application code.
 */
public interface ActorSystemProvider {
  /**
   * Creates and starts a system.
   *
   * @param name a valid system name
   * @param config the fully resolved configuration (overrides, user config, references)
   * @return the started system
   */
  ActorSystem create(String name, Config config);
}
