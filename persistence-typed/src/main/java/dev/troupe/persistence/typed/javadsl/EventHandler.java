package dev.troupe.persistence.typed.javadsl;

/**
 * Folds an event into the state: used for stored events and, while recovering, for replayed ones,
 * so it must be a function of the state and the event only (no side effects, no clock).
 *
 * @param <S> the state
 * @param <E> the events
 */
@FunctionalInterface
public interface EventHandler<S, E> {
  /**
   * @param state the state before the event
   * @param event the event
   * @return the state after it (the same object, changed, or a new one)
   */
  S apply(S state, E event);
}
