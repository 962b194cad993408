package dev.troupe.actor;

/**
 * A publish-subscribe channel by message class: a subscriber to {@code C} receives every published
 * event that is an instance of {@code C} (subclasses included), once, whatever else it subscribed
 * to. Used for {@link DeadLetter}, {@link UnhandledMessage} and users' own events.
 */
public interface EventStream {

  /**
   * Subscribes an actor to events of a class.
   *
   * @param subscriber the actor
   * @param channel the class of events
   * @return {@code true} if it was not already subscribed to exactly this class
   */
  boolean subscribe(ActorRef subscriber, Class<?> channel);

  /**
   * Unsubscribes an actor from a class.
   *
   * @param subscriber the actor
   * @param channel the class
   * @return {@code true} if it was subscribed to exactly this class
   */
  boolean unsubscribe(ActorRef subscriber, Class<?> channel);

  /**
   * Unsubscribes an actor from everything. Terminated actors are unsubscribed automatically.
   *
   * @param subscriber the actor
   */
  void unsubscribe(ActorRef subscriber);

  /**
   * Publishes an event to the subscribers of its class and superclasses.
   *
   * @param event the event
   */
  void publish(Object event);
}
