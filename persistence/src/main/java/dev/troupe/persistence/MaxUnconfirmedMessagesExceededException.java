package dev.troupe.persistence;

/**
 * Thrown by {@link AbstractPersistentActorWithAtLeastOnceDelivery#deliver} when the actor already
 * holds {@link AbstractPersistentActorWithAtLeastOnceDelivery#maxUnconfirmedMessages()} unconfirmed
 * deliveries: nothing is delivered and no delivery id is used. Check {@link
 * AbstractPersistentActorWithAtLeastOnceDelivery#numberOfUnconfirmed()} before persisting the
 * event whose handler delivers, and refuse the command instead.
 */
public final class MaxUnconfirmedMessagesExceededException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** @param message why */
  public MaxUnconfirmedMessagesExceededException(String message) {
    super(message);
  }
}
