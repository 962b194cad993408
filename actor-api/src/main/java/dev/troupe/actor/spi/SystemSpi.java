package dev.troupe.actor.spi;

import dev.troupe.actor.CoordinatedShutdown;

/**
 * Implemented by every runtime {@link dev.troupe.actor.ActorSystem}: the per-system services that
 * the API's static accessors (such as {@link CoordinatedShutdown#get}) hand out.
 */
public interface SystemSpi {
  /** @return the system's one coordinated shutdown */
  CoordinatedShutdown coordinatedShutdown();
}
