package dev.troupe.persistence.typed.javadsl;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Builds an {@link EventHandler} from cases, per state: the first case whose state condition and
 * event class match applies an event. An event no case matches fails the actor with an {@link
 * IllegalStateException}: a stored event that the state cannot take is a bug to see, not to skip.
 *
 * @param <S> the state
 * @param <E> the events
 */
public final class EventHandlerBuilder<S, E> {
  private final List<Case<S, E>> cases = new ArrayList<>();

  EventHandlerBuilder() {}

  /** @return cases for every state */
  public ForState<S> forAnyState() {
    return new ForState<>(s -> true, s -> s);
  }

  /**
   * @param type a class of states
   * @param <T> that class
   * @return cases for states of that class
   */
  public <T extends S> ForState<T> forStateType(Class<T> type) {
    return new ForState<>(type::isInstance, type::cast);
  }

  /**
   * @param condition which states
   * @return cases for the states that satisfy it
   */
  public ForState<S> forState(Predicate<S> condition) {
    return new ForState<>(condition, s -> s);
  }

  /** @return the handler of every case added so far */
  public EventHandler<S, E> build() {
    List<Case<S, E>> all = List.copyOf(cases);
    return (state, event) -> {
      for (Case<S, E> c : all) {
        if (c.type.isInstance(event) && c.state.test(state)) {
          return c.handler.apply(state, event);
        }
      }
      throw new IllegalStateException("no event handler for " + event.getClass().getName() + " in state " + state);
    };
  }

  private record Case<S, E>(Predicate<S> state, Class<?> type, BiFunction<S, E, S> handler) {}

  /**
   * The cases for some states.
   *
   * @param <T> the class of those states
   */
  public final class ForState<T> {
    private final Predicate<S> condition;
    private final Function<S, T> view;

    ForState(Predicate<S> condition, Function<S, T> view) {
      this.condition = condition;
      this.view = view;
    }

    /**
     * @param type a class of events
     * @param handler the state after the event, from the state and the event
     * @param <X> that class
     * @return these cases
     */
    public <X extends E> ForState<T> onEvent(Class<X> type, BiFunction<T, X, S> handler) {
      cases.add(new Case<>(condition, type, (s, e) -> handler.apply(view.apply(s), type.cast(e))));
      return this;
    }

    /**
     * @param type a class of events
     * @param handler the state after the event, from the event alone (e.g. the first event)
     * @param <X> that class
     * @return these cases
     */
    public <X extends E> ForState<T> onEvent(Class<X> type, Function<X, S> handler) {
      cases.add(new Case<>(condition, type, (s, e) -> handler.apply(type.cast(e))));
      return this;
    }

    /** @return the handler of every case added so far (to any state) */
    public EventHandler<S, E> build() {
      return EventHandlerBuilder.this.build();
    }
  }
}
