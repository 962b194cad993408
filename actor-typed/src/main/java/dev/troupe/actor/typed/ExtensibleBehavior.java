package dev.troupe.actor.typed;

import dev.troupe.actor.typed.javadsl.ActorContext;

/**
 * A behaviour written as a class with two methods: the base of {@link
 * dev.troupe.actor.typed.javadsl.AbstractBehavior} and of the behaviours the builders make. Each
 * method returns the next behaviour, or {@code Behaviors.same()}, {@code unhandled()} or {@code
 * stopped()}.
 *
 * @param <T> the type of message the behaviour accepts
 */
public abstract class ExtensibleBehavior<T> extends Behavior<T> {
  /** For subclasses. */
  protected ExtensibleBehavior() {}

  /**
   * Handles one message.
   *
   * @param ctx the actor's context
   * @param msg the message
   * @return the next behaviour
   */
  public abstract Behavior<T> receive(ActorContext<T> ctx, T msg);

  /**
   * Handles one signal.
   *
   * @param ctx the actor's context
   * @param signal the signal
   * @return the next behaviour ({@code Behaviors.unhandled()} for a signal it does not handle)
   */
  public abstract Behavior<T> receiveSignal(ActorContext<T> ctx, Signal signal);
}
