package dev.troupe.pattern;

/**
 * Fails an ask whose reply is known not to come, before its timeout: its message was dropped on
 * the way (it could not be serialized, was too large, its node could not be reached or refused the
 * connection), or the recipient on another node does not exist. The message says why.
 *
 * <p>It is not an {@link AskTimeoutException}: nothing waited, and the cause is known, so code that
 * retries after a timeout (the recipient may be slow) should not retry this the same way (the same
 * message to the same recipient fails again for the same reason until something changes).
 */
public class AskFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** @param message names the recipient, the message type and why no reply can come */
  public AskFailedException(String message) {
    super(message);
  }
}
