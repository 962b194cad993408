package dev.troupe.persistence;

import java.util.List;

/**
 * Sent by an {@link AbstractPersistentActorWithAtLeastOnceDelivery} to itself, as a command, when
 * deliveries have gone {@link
 * AbstractPersistentActorWithAtLeastOnceDelivery#warnAfterNumberOfUnconfirmedAttempts()} attempts
 * without a confirmation: one warning per redelivery tick, listing the deliveries that reached
 * that count in it (each delivery is listed once). They are still sent again; the actor may
 * confirm them to give up, or tell someone.
 *
 * @param unconfirmedDeliveries the deliveries, by id
 */
public record UnconfirmedWarning(List<UnconfirmedDelivery> unconfirmedDeliveries) {
  /** @param unconfirmedDeliveries the deliveries (copied) */
  public UnconfirmedWarning {
    unconfirmedDeliveries = List.copyOf(unconfirmedDeliveries);
  }

  /** @return {@link #unconfirmedDeliveries()} */
  public List<UnconfirmedDelivery> getUnconfirmedDeliveries() {
    return unconfirmedDeliveries;
  }
}
