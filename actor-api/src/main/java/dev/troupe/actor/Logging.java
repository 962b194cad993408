package dev.troupe.actor;

import dev.troupe.actor.spi.SystemSpi;
import java.util.Objects;

/**
 * Loggers by Pekko's names, for code that moves over with {@code Logging.getLogger(...)} lines.
 * Inside an actor, {@code log()} (or {@code getContext().getLog()}) is the same logger as {@code
 * Logging.getLogger(system, this)}.
 */
public final class Logging {
  private Logging() {}

  /**
   * The logger of a log source: an actor's own logger (named after its class; its path, system
   * and current sender in the MDC) for an actor, else a logger named after the source: the class
   * itself for a {@link Class}, the text for a {@link String}, the class of any other object.
   *
   * @param system the system it logs for
   * @param logSource an actor, a class, a logger name, or an object whose class names the logger
   * @return the logger
   */
  public static LoggingAdapter getLogger(ActorSystem system, Object logSource) {
    Objects.requireNonNull(system, "system");
    Objects.requireNonNull(logSource, "logSource");
    if (logSource instanceof Actor a) {
      return a.log();
    }
    String name =
        logSource instanceof Class<?> c ? c.getName()
            : logSource instanceof String s ? s
            : logSource.getClass().getName();
    if (system instanceof SystemSpi spi) {
      return spi.logger(name);
    }
    throw new IllegalStateException("actor system " + system.name() + " is not a Troupe runtime's system");
  }

  /**
   * An actor's own logger: the same as {@code actor.log()}.
   *
   * @param actor the actor
   * @return its logger
   */
  public static LoggingAdapter getLogger(Actor actor) {
    return Objects.requireNonNull(actor, "actor").log();
  }
}
