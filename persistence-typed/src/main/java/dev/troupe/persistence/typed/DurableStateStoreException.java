package dev.troupe.persistence.typed;

/**
 * A durable-state actor fails with this when its store failed a write or delete (whether the state
 * was stored is unknown, unless the store refused the revision: another writer of the id), or its
 * recovery: it stops, or restarts and reads its state again under {@code
 * Behaviors.supervise(...).onFailure(DurableStateStoreException.class, SupervisorStrategy.restartWithBackoff(...))}.
 */
public class DurableStateStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what failed
   * @param cause the store's or the behaviour's failure
   */
  public DurableStateStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
