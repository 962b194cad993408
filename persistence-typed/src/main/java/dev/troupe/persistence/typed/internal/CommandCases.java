package dev.troupe.persistence.typed.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The cases the command handler builders collect (those of event-sourced and of durable-state
 * behaviours, with and without enforced replies): per state condition and command class, in the
 * order added; the first that matches a command handles it.
 *
 * @param <C> the commands
 * @param <S> the state
 * @param <R> what a handler returns (an effect, or an effect that replies)
 */
public final class CommandCases<C, S, R> {
  private final List<Case<C, S, R>> cases = new ArrayList<>();

  private record Case<C, S, R>(Predicate<S> state, Class<?> type, BiFunction<S, C, R> handler) {}

  /**
   * Which states some cases are for, and how a handler sees them.
   *
   * @param condition which states
   * @param view the state as the handler takes it
   * @param <S> the state
   * @param <T> the handler's view of it
   */
  public record States<S, T>(Predicate<S> condition, Function<S, T> view) {
    /**
     * @param <S> the state
     * @return every state, as it is
     */
    public static <S> States<S, S> any() {
      return new States<>(s -> true, s -> s);
    }

    /**
     * @param type a class of states (null never matches)
     * @param <S> the state
     * @param <T> that class
     * @return the states of that class, cast to it
     */
    public static <S, T extends S> States<S, T> ofType(Class<T> type) {
      return new States<>(type::isInstance, type::cast);
    }

    /**
     * @param condition which states
     * @param <S> the state
     * @return the states that satisfy it, as they are
     */
    public static <S> States<S, S> where(Predicate<S> condition) {
      return new States<>(condition, s -> s);
    }
  }

  /** Collects no case yet. */
  public CommandCases() {}

  /**
   * @param on which states, and the handler's view of them
   * @param type a class of commands
   * @param handler the answer, from the state as viewed and the command
   * @param <T> the handler's view of the state
   * @param <X> that class of commands
   */
  public <T, X extends C> void add(States<S, T> on, Class<X> type, BiFunction<T, X, R> handler) {
    cases.add(new Case<>(on.condition(), type, (s, c) -> handler.apply(on.view().apply(s), type.cast(c))));
  }

  /**
   * @param on which states, and the handler's view of them
   * @param handler the answer to any command, from the state as viewed and the command
   * @param <T> the handler's view of the state
   */
  public <T> void addAny(States<S, T> on, BiFunction<T, C, R> handler) {
    cases.add(new Case<>(on.condition(), Object.class, (s, c) -> handler.apply(on.view().apply(s), c)));
  }

  /**
   * @param unhandled what a command no case matches gets
   * @return the handler of the cases added so far
   */
  public BiFunction<S, C, R> handler(R unhandled) {
    List<Case<C, S, R>> all = List.copyOf(cases);
    return (state, command) -> {
      for (Case<C, S, R> c : all) {
        if (c.type.isInstance(command) && c.state.test(state)) {
          return c.handler.apply(state, command);
        }
      }
      return unhandled;
    };
  }
}
