package dev.troupe.persistence.typed.state.javadsl;

/**
 * Answers a command, given the current state, with an effect (a new state to persist, or none).
 * Must not change the state object it is given and should not block.
 *
 * @param <C> the commands
 * @param <S> the state
 */
@FunctionalInterface
public interface CommandHandler<C, S> {
  /**
   * @param state the current state
   * @param command the command
   * @return what to do
   */
  Effect<S> apply(S state, C command);
}
