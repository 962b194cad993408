package dev.troupe.actor;

/** Thrown for a configuration problem: an unknown dispatcher, mailbox or router id, or a malformed value. The message names the key or id. */
public class ConfigurationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what is wrong, naming the key or id
   */
  public ConfigurationException(String message) {
    super(message);
  }

  /**
   * @param message what is wrong, naming the key or id
   * @param cause the underlying error
   */
  public ConfigurationException(String message, Throwable cause) {
    super(message, cause);
  }
}
