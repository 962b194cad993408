package dev.troupe.persistence;

import java.util.List;

/**
 * The delivery state of an {@link AbstractPersistentActorWithAtLeastOnceDelivery}, from {@link
 * AbstractPersistentActorWithAtLeastOnceDelivery#getDeliverySnapshot()}, for a snapshot of the
 * actor (usually a part of its own state's snapshot); {@link
 * AbstractPersistentActorWithAtLeastOnceDelivery#setDeliverySnapshot} restores it, e.g. from a
 * {@link SnapshotOffer} while the actor recovers.
 *
 * @param currentDeliveryId the id of the last delivery made; the next one gets the id after it
 * @param unconfirmedDeliveries the deliveries not confirmed yet, by id
 */
public record AtLeastOnceDeliverySnapshot(long currentDeliveryId, List<UnconfirmedDelivery> unconfirmedDeliveries) {
  /**
   * @param currentDeliveryId the id of the last delivery made
   * @param unconfirmedDeliveries the deliveries not confirmed yet (copied)
   */
  public AtLeastOnceDeliverySnapshot {
    unconfirmedDeliveries = List.copyOf(unconfirmedDeliveries);
  }

  /** @return {@link #currentDeliveryId()} */
  public long getCurrentDeliveryId() {
    return currentDeliveryId;
  }

  /** @return {@link #unconfirmedDeliveries()} */
  public List<UnconfirmedDelivery> getUnconfirmedDeliveries() {
    return unconfirmedDeliveries;
  }
}
