package dev.troupe.cluster.internal.pubsub;

import java.util.Objects;

/**
 * A message one member's mediator hands to another's for the actors listed on that node under
 * {@code key} (a topic's subscribers, one of a group's, or the actor put under a path). It travels
 * with the original sender, so the receivers see who published or sent it.
 *
 * @param key the listing's key (see {@link MediatorActor})
 * @param message the message itself
 */
public record Relay(String key, Object message) {
  public Relay {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(message, "message");
  }
}
