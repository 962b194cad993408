package dev.troupe.cluster.typed;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.cluster.ClusterEvent;
import java.util.Objects;

/**
 * Subscribes an actor to the cluster events of a class and its subclasses ({@code
 * ClusterEvent.MemberEvent.class}, {@code ClusterEvent.MemberUp.class}, {@code
 * ClusterEvent.ReachabilityEvent.class}, ...): it first hears the current state as events (a
 * {@code MemberUp} for each member that is up, and so on), then every change in the order this
 * member saw it. Or to {@link SelfUp} or {@link SelfRemoved}: one event when this member is up (at
 * once if it already is), or removed.
 *
 * <p>Each {@code Subscribe} is a subscription of its own: one actor may subscribe its message
 * adapters to several classes. A subscription ends with {@link Unsubscribe} or when the subscriber's
 * actor stops.
 *
 * @param subscriber who receives the events (an actor's ref, or one of its message adapters)
 * @param eventClass a cluster event class, {@code SelfUp.class} or {@code SelfRemoved.class}
 * @param <E> the events' type
 */
public record Subscribe<E>(ActorRef<E> subscriber, Class<E> eventClass) implements ClusterStateSubscription {
  /**
   * @param subscriber not null
   * @param eventClass not null; a subtype of {@link ClusterEvent}, or {@code SelfUp} or {@code
   *     SelfRemoved}
   */
  public Subscribe {
    Objects.requireNonNull(subscriber, "subscriber");
    Objects.requireNonNull(eventClass, "eventClass");
    if (!ClusterEvent.class.isAssignableFrom(eventClass) && eventClass != SelfUp.class && eventClass != SelfRemoved.class) {
      throw new IllegalArgumentException(eventClass.getName() + " is not a cluster event class: subscribe to a"
          + " ClusterEvent class (e.g. ClusterEvent.MemberEvent.class), SelfUp.class or SelfRemoved.class");
    }
  }

  /**
   * @param subscriber who receives the events
   * @param eventClass their class
   * @param <E> their type
   * @return the command
   */
  public static <E> Subscribe<E> create(ActorRef<E> subscriber, Class<E> eventClass) {
    return new Subscribe<>(subscriber, eventClass);
  }
}
