package dev.troupe.cluster.typed;

import dev.troupe.actor.typed.ActorRef;
import java.util.Objects;

/**
 * Ends every subscription of a subscriber.
 *
 * @param subscriber the ref it subscribed with
 * @param <E> what it received
 */
public record Unsubscribe<E>(ActorRef<E> subscriber) implements ClusterStateSubscription {
  /** @param subscriber not null */
  public Unsubscribe {
    Objects.requireNonNull(subscriber, "subscriber");
  }

  /**
   * @param subscriber the ref it subscribed with
   * @param <E> what it received
   * @return the command
   */
  public static <E> Unsubscribe<E> create(ActorRef<E> subscriber) {
    return new Unsubscribe<>(subscriber);
  }
}
