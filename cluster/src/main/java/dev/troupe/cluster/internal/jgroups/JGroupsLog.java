package dev.troupe.cluster.internal.jgroups;

import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.Set;
import org.jgroups.logging.Log;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JGroups' log abstraction on slf4j, one level quieter than JGroups' own: the engine is an
 * implementation detail of the cluster, whose own events Troupe logs itself.
 *
 * <ul>
 *   <li>Loggers keep JGroups' names ({@code org.jgroups.protocols.TCP} ...), so that an application
 *       can turn them up.
 *   <li>JGroups' INFO lines (its local address, "server listening on", "creating cluster as
 *       coordinator") go out at DEBUG.
 *   <li>Two lines JGroups writes at ERROR or WARN when a connection closes under it, which happens
 *       on every ordinary stop of a peer, go out at DEBUG: "failed sending graceful close" and
 *       "failed handling message ... ClosedChannelException".
 *   <li>Everything else keeps its level (a failed join attempt, a full thread pool, a merge that
 *       failed are worth a WARN).
 * </ul>
 *
 * <p>Messages are JGroups' {@code String.format} patterns, formatted only when the level is on.
 */
final class JGroupsLog implements Log {
  /** Patterns JGroups logs at ERROR/WARN when a connection closes under it during an ordinary stop. */
  private static final Set<String> CLOSING = Set.of("%s: failed sending graceful close to %s: %s");

  private static final String CLOSED_CHANNEL = "%s: failed handling message from %s: %s";

  private final Logger logger;

  JGroupsLog(Logger logger) {
    this.logger = logger;
  }

  JGroupsLog(Class<?> clazz) {
    this(LoggerFactory.getLogger(clazz));
  }

  JGroupsLog(String category) {
    this(LoggerFactory.getLogger(category));
  }

  private static String format(String pattern, Object... args) {
    if (args == null || args.length == 0) {
      return pattern;
    }
    try {
      return String.format(Locale.ROOT, pattern, args);
    } catch (RuntimeException e) {
      return pattern + " " + java.util.Arrays.toString(args);
    }
  }

  /** Whether an ERROR/WARN pattern is the noise of a connection closing during a stop. */
  private static boolean closing(String pattern, Object... args) {
    if (CLOSING.contains(pattern)) {
      return true;
    }
    if (CLOSED_CHANNEL.equals(pattern) && args != null && args.length > 0) {
      Object last = args[args.length - 1];
      return last instanceof ClosedChannelException
          || last instanceof Throwable t && t.getCause() instanceof ClosedChannelException;
    }
    return false;
  }

  @Override
  public boolean isFatalEnabled() {
    return logger.isErrorEnabled();
  }

  @Override
  public boolean isErrorEnabled() {
    return logger.isErrorEnabled();
  }

  @Override
  public boolean isWarnEnabled() {
    return logger.isWarnEnabled();
  }

  @Override
  public boolean isInfoEnabled() {
    return logger.isDebugEnabled();
  }

  @Override
  public boolean isDebugEnabled() {
    return logger.isDebugEnabled();
  }

  @Override
  public boolean isTraceEnabled() {
    return logger.isTraceEnabled();
  }

  @Override
  public void fatal(String msg) {
    logger.error(msg);
  }

  @Override
  public void fatal(String msg, Object... args) {
    if (logger.isErrorEnabled()) {
      logger.error(format(msg, args));
    }
  }

  @Override
  public void fatal(String msg, Throwable throwable) {
    logger.error(msg, throwable);
  }

  @Override
  public void error(String msg) {
    if (closing(msg)) {
      logger.debug(msg);
    } else {
      logger.error(msg);
    }
  }

  @Override
  public void error(String format, Object... args) {
    if (closing(format, args)) {
      if (logger.isDebugEnabled()) {
        logger.debug(format(format, args));
      }
    } else if (logger.isErrorEnabled()) {
      logger.error(format(format, args));
    }
  }

  @Override
  public void error(String msg, Throwable throwable) {
    logger.error(msg, throwable);
  }

  @Override
  public void warn(String msg) {
    logger.warn(msg);
  }

  @Override
  public void warn(String msg, Object... args) {
    if (closing(msg, args)) {
      if (logger.isDebugEnabled()) {
        logger.debug(format(msg, args));
      }
    } else if (logger.isWarnEnabled()) {
      logger.warn(format(msg, args));
    }
  }

  @Override
  public void warn(String msg, Throwable throwable) {
    logger.warn(msg, throwable);
  }

  @Override
  public void info(String msg) {
    logger.debug(msg);
  }

  @Override
  public void info(String msg, Object... args) {
    if (logger.isDebugEnabled()) {
      logger.debug(format(msg, args));
    }
  }

  @Override
  public void debug(String msg) {
    logger.debug(msg);
  }

  @Override
  public void debug(String msg, Object... args) {
    if (logger.isDebugEnabled()) {
      logger.debug(format(msg, args));
    }
  }

  @Override
  public void debug(String msg, Throwable throwable) {
    logger.debug(msg, throwable);
  }

  @Override
  public void trace(Object msg) {
    if (logger.isTraceEnabled()) {
      logger.trace(String.valueOf(msg));
    }
  }

  @Override
  public void trace(String msg) {
    logger.trace(msg);
  }

  @Override
  public void trace(String msg, Object... args) {
    if (logger.isTraceEnabled()) {
      logger.trace(format(msg, args));
    }
  }

  @Override
  public void trace(String msg, Throwable throwable) {
    logger.trace(msg, throwable);
  }

  /** Levels are the slf4j backend's to set; JGroups' own setting is ignored. */
  @Override
  public void setLevel(String level) {}

  @Override
  public String getLevel() {
    if (logger.isTraceEnabled()) {
      return "TRACE";
    }
    if (logger.isDebugEnabled()) {
      return "DEBUG";
    }
    if (logger.isWarnEnabled()) {
      return "WARN";
    }
    return logger.isErrorEnabled() ? "ERROR" : "OFF";
  }
}
