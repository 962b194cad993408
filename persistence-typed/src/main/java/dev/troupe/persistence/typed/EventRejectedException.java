package dev.troupe.persistence.typed;

/**
 * An event-sourced actor fails with this when the journal rejected its events without storing
 * them (e.g. an event that does not serialize): the state did not change.
 */
public class EventRejectedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message which events
   * @param cause the journal's reason
   */
  public EventRejectedException(String message, Throwable cause) {
    super(message, cause);
  }
}
