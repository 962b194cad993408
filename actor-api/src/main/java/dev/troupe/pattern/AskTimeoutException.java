package dev.troupe.pattern;

/** Fails an ask whose reply did not arrive in time. */
public class AskTimeoutException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** @param message names the target, the message type and the timeout */
  public AskTimeoutException(String message) {
    super(message);
  }
}
