package dev.troupe.actor;

/**
 * Logging for actors and systems. Messages use {@code {}} placeholders; arguments are formatted
 * only when the level is enabled. The runtime routes it to SLF4J.
 */
public interface LoggingAdapter {
  /** @return whether debug messages are logged */
  boolean isDebugEnabled();

  /**
   * Logs at debug level.
   *
   * @param template message with {@code {}} placeholders
   * @param args the arguments
   */
  void debug(String template, Object... args);

  /**
   * Logs at info level.
   *
   * @param template message with {@code {}} placeholders
   * @param args the arguments
   */
  void info(String template, Object... args);

  /**
   * Logs at warning level.
   *
   * @param template message with {@code {}} placeholders
   * @param args the arguments
   */
  void warning(String template, Object... args);

  /**
   * Logs at error level.
   *
   * @param template message with {@code {}} placeholders
   * @param args the arguments
   */
  void error(String template, Object... args);

  /**
   * Logs an error with its cause.
   *
   * @param cause the failure
   * @param template message with {@code {}} placeholders
   * @param args the arguments
   */
  void error(Throwable cause, String template, Object... args);
}
