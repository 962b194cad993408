package dev.troupe.bench.common;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import java.util.concurrent.TimeUnit;

/** Starts and stops Troupe systems for benchmarks, through the public API only. */
public final class TroupeSystems {
  private TroupeSystems() {}

  /**
   * Starts a system configured by HOCON text (usually a {@link Dispatchers#section} ).
   *
   * @param name the system name (see {@link Names#unique})
   * @param hocon configuration, falling back to Troupe's {@code reference.conf}
   * @return the system
   */
  public static ActorSystem start(String name, String hocon) {
    return ActorSystem.create(name, ConfigFactory.parseString(hocon));
  }

  /**
   * Terminates a system and waits for it, bounded.
   *
   * @param system the system, or {@code null}
   */
  public static void stop(ActorSystem system) {
    if (system == null) {
      return;
    }
    try {
      system.terminate().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("Troupe system " + system.name() + " did not terminate", e);
    }
  }
}
