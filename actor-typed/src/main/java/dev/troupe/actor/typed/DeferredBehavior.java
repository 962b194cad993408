package dev.troupe.actor.typed;

import dev.troupe.actor.typed.javadsl.ActorContext;

/**
 * A behaviour built from the actor's context when an actor starts with it, and again on every
 * restart, so that one value may start any number of actors: what {@code Behaviors.setup} makes,
 * and the base of behaviours that other modules provide as classes for users to extend (the
 * event-sourced behaviour of {@code troupe-persistence-typed}).
 *
 * @param <T> the type of message the behaviour accepts
 */
public abstract class DeferredBehavior<T> extends Behavior<T> {
  /** For subclasses. */
  protected DeferredBehavior() {}

  /**
   * Builds the behaviour the actor runs.
   *
   * @param ctx the starting actor's context
   * @return the behaviour (possibly deferred again)
   */
  public abstract Behavior<T> apply(ActorContext<T> ctx);
}
