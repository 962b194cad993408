package dev.troupe.persistence.typed.javadsl;

/**
 * Answers a command, given the current state, with an effect. Must not change the state (the
 * event handler does) and should not block.
 *
 * @param <C> the commands
 * @param <E> the events
 * @param <S> the state
 */
@FunctionalInterface
public interface CommandHandler<C, E, S> {
  /**
   * @param state the current state
   * @param command the command
   * @return what to do
   */
  Effect<E, S> apply(S state, C command);
}
