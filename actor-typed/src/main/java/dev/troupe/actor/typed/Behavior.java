package dev.troupe.actor.typed;

/**
 * What an actor does with the next message: an immutable value. A behaviour answers each message
 * with the behaviour for the next one ({@code Behaviors.same()} to keep it, {@code
 * Behaviors.stopped()} to stop). Build behaviours with {@link
 * dev.troupe.actor.typed.javadsl.Behaviors} or by extending {@link
 * dev.troupe.actor.typed.javadsl.AbstractBehavior}; the only other subclass users write is {@link
 * ExtensibleBehavior}.
 *
 * <p>A behaviour that needs the actor's context to be built ({@code Behaviors.setup}, {@code
 * withTimers}, {@code withStash}, {@code supervise}) is deferred: it is built when an actor starts
 * with it, again on every restart, so one value may start any number of actors.
 *
 * @param <T> the type of message the behaviour accepts
 */
public abstract class Behavior<T> {
  /** For {@link ExtensibleBehavior} and Troupe's own behaviours. */
  protected Behavior() {}

  /**
   * This behaviour seen as accepting a narrower type; no allocation.
   *
   * @param <U> the narrower type
   * @return this behaviour
   */
  @SuppressWarnings("unchecked")
  public final <U extends T> Behavior<U> narrow() {
    return (Behavior<U>) this;
  }
}
