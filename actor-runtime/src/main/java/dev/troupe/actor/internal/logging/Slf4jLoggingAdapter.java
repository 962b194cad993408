package dev.troupe.actor.internal.logging;

import dev.troupe.actor.LoggingAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A {@link LoggingAdapter} over an SLF4J logger; {@code {}} templates pass straight through. */
public final class Slf4jLoggingAdapter implements LoggingAdapter {
  private final Logger log;

  /** @param name the SLF4J logger's name */
  public Slf4jLoggingAdapter(String name) {
    this.log = LoggerFactory.getLogger(name);
  }

  @Override
  public boolean isDebugEnabled() {
    return log.isDebugEnabled();
  }

  @Override
  public void debug(String template, Object... args) {
    log.debug(template, args);
  }

  @Override
  public void info(String template, Object... args) {
    log.info(template, args);
  }

  @Override
  public void warning(String template, Object... args) {
    log.warn(template, args);
  }

  @Override
  public void error(String template, Object... args) {
    log.error(template, args);
  }

  @Override
  public void error(Throwable cause, String template, Object... args) {
    if (log.isErrorEnabled()) {
      log.error(template, withCause(args, cause));
    }
  }

  /** @return the arguments with the cause appended, where SLF4J looks for a throwable */
  public static Object[] withCause(Object[] args, Throwable cause) {
    Object[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = cause;
    return all;
  }
}
