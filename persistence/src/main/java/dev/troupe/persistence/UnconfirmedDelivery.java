package dev.troupe.persistence;

import dev.troupe.actor.ActorPath;
import java.util.Objects;

/**
 * A delivery of an {@link AbstractPersistentActorWithAtLeastOnceDelivery} that is not confirmed
 * yet: in an {@link AtLeastOnceDeliverySnapshot} and in an {@link UnconfirmedWarning}.
 *
 * @param deliveryId the id {@code deliver} gave it
 * @param destination where it is sent
 * @param message what is sent
 */
public record UnconfirmedDelivery(long deliveryId, ActorPath destination, Object message) {
  /**
   * @param deliveryId the id {@code deliver} gave it
   * @param destination where it is sent
   * @param message what is sent
   */
  public UnconfirmedDelivery {
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(message, "message");
  }

  /** @return {@link #deliveryId()} */
  public long getDeliveryId() {
    return deliveryId;
  }

  /** @return {@link #destination()} */
  public ActorPath getDestination() {
    return destination;
  }

  /** @return {@link #message()} */
  public Object getMessage() {
    return message;
  }
}
