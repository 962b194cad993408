package dev.troupe.actor.internal.logging;

import java.util.Optional;
import org.slf4j.ILoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

/**
 * With only {@code slf4j-api} on the class path, every actor failure, dead letter and supervisor
 * decision is dropped without a trace; a system starting in that state says so once on stderr.
 */
public final class LoggingProviderCheck {
  /** The key that switches the notice off. */
  public static final String SWITCH = "troupe.log-no-logging-provider-notice";

  private LoggingProviderCheck() {}

  /**
   * @param factory SLF4J's logger factory, {@code LoggerFactory.getILoggerFactory()}
   * @param enabled the value of {@link #SWITCH}
   * @return the line to print, if SLF4J has no provider and the notice is enabled
   */
  public static Optional<String> notice(ILoggerFactory factory, boolean enabled) {
    if (!enabled || !(factory instanceof NOPLoggerFactory)) {
      return Optional.empty();
    }
    return Optional.of(
        "Troupe: no SLF4J provider is bound, so actor failures, dead letters and supervisor"
            + " decisions will be invisible; add a logging backend such as"
            + " ch.qos.logback:logback-classic to the class path (set "
            + SWITCH
            + " = off to silence this)");
  }
}
