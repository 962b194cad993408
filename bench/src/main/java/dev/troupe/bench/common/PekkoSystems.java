package dev.troupe.bench.common;

import com.typesafe.config.ConfigFactory;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;

/**
 * Starts and stops Pekko systems for benchmarks. Only logging and the JVM shutdown hook differ from
 * Pekko's defaults; dispatcher settings come from {@link Dispatchers}.
 */
public final class PekkoSystems {
  private static final String QUIET =
      "pekko.loglevel = WARNING\n"
          + "pekko.stdout-loglevel = WARNING\n"
          + "pekko.log-dead-letters = off\n"
          + "pekko.log-dead-letters-during-shutdown = off\n"
          + "pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n";

  private PekkoSystems() {}

  /**
   * Starts a system configured by HOCON text.
   *
   * @param name the system name
   * @param hocon configuration, falling back to Pekko's {@code reference.conf}
   * @return the system
   */
  public static ActorSystem start(String name, String hocon) {
    return ActorSystem.create(
        name,
        ConfigFactory.parseString(hocon)
            .withFallback(ConfigFactory.parseString(QUIET))
            .withFallback(ConfigFactory.defaultReference())
            .resolve());
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
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("Pekko system " + system.name() + " did not terminate", e);
    }
  }
}
