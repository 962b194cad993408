package dev.troupe.actor.internal;

import dev.troupe.actor.internal.ref.DeadLettersRef;
import dev.troupe.actor.internal.logging.Slf4jLoggingAdapter;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.LoggingAdapter;
import dev.troupe.actor.internal.dispatch.Envelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.event.Level;

/**
 * An actor's logger: SLF4J, named after the actor's class, with the actor's path, its system and
 * the current sender in the MDC while a line is logged.
 *
 * <p>A disabled level costs one {@code isXxxEnabled} check and nothing else: the MDC is touched
 * and the path rendered only for a line that is logged. Created once per actor, on its first
 * {@code getLog()} (kept in {@link LazyCellState}); used on the actor's thread, whose current message
 * names the sender.
 */
final class ActorLoggingAdapter implements LoggingAdapter {
  /** MDC key of the logging actor's path. */
  static final String SOURCE = "troupeSource";
  /** MDC key of the system's name. */
  static final String SYSTEM = "troupeActorSystem";
  /** MDC key of the current message's sender's path, when it has one. */
  static final String SENDER = "troupeSender";

  private final Logger log;
  private final ActorCell cell;
  private String source; // the path, rendered by the first line logged

  ActorLoggingAdapter(ActorCell cell) {
    this.cell = cell;
    this.log = LoggerFactory.getLogger(cell.props.actorClass());
  }

  @Override
  public boolean isDebugEnabled() {
    return log.isDebugEnabled();
  }

  @Override
  public void debug(String template, Object... args) {
    if (log.isDebugEnabled()) {
      logged(Level.DEBUG, template, args);
    }
  }

  @Override
  public void info(String template, Object... args) {
    if (log.isInfoEnabled()) {
      logged(Level.INFO, template, args);
    }
  }

  @Override
  public void warning(String template, Object... args) {
    if (log.isWarnEnabled()) {
      logged(Level.WARN, template, args);
    }
  }

  @Override
  public void error(String template, Object... args) {
    if (log.isErrorEnabled()) {
      logged(Level.ERROR, template, args);
    }
  }

  @Override
  public void error(Throwable cause, String template, Object... args) {
    if (log.isErrorEnabled()) {
      logged(Level.ERROR, template, Slf4jLoggingAdapter.withCause(args, cause));
    }
  }

  /** Logs an enabled line with the MDC set, and clears the keys afterwards. */
  private void logged(Level level, String template, Object[] args) {
    String s = source;
    if (s == null) {
      s = cell.self.path().toString();
      source = s;
    }
    MDC.put(SOURCE, s);
    MDC.put(SYSTEM, cell.self.system.name);
    ActorRef sender = currentSender();
    if (sender != null) {
      MDC.put(SENDER, sender.path().toString());
    }
    try {
      switch (level) {
        case DEBUG -> log.debug(template, args);
        case INFO -> log.info(template, args);
        case WARN -> log.warn(template, args);
        default -> log.error(template, args);
      }
    } finally {
      MDC.remove(SOURCE);
      MDC.remove(SYSTEM);
      if (sender != null) {
        MDC.remove(SENDER);
      }
    }
  }

  /** @return the sender of the message being processed; null outside one or when it has none */
  private ActorRef currentSender() {
    Envelope e = cell.current;
    ActorRef s = e == null ? null : e.sender();
    return s == null || s instanceof DeadLettersRef ? null : s;
  }
}
