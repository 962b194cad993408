package dev.troupe.persistence.typed;

/**
 * An event-sourced actor fails with this when the journal failed a write (whether the events were
 * stored is unknown) or its recovery: it stops, or restarts and recovers again under {@code
 * Behaviors.supervise(...).onFailure(JournalFailureException.class, SupervisorStrategy.restartWithBackoff(...))}.
 */
public class JournalFailureException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what failed
   * @param cause the journal's or the behaviour's failure
   */
  public JournalFailureException(String message, Throwable cause) {
    super(message, cause);
  }
}
