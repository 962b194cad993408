package dev.troupe.persistence.typed.javadsl;

import dev.troupe.persistence.typed.internal.CommandCases;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Builds a {@link CommandHandler} from cases, per state: the first case whose state condition and
 * command class match handles a command; a command no case matches is unhandled.
 *
 * <pre>{@code
 * CommandHandlerBuilder<Command, Event, Cart> b = newCommandHandlerBuilder();
 * b.forState(Cart::isOpen)
 *     .onCommand(AddItem.class, (cart, c) -> Effect().persist(new ItemAdded(c.item())).thenReply(c.replyTo(), Cart::summary))
 *     .onCommand(Checkout.class, (cart, c) -> Effect().persist(new CheckedOut()));
 * b.forAnyState()
 *     .onCommand(Get.class, (cart, c) -> Effect().reply(c.replyTo(), cart.summary()));
 * return b.build();
 * }</pre>
 *
 * @param <C> the commands
 * @param <E> the events
 * @param <S> the state
 */
public final class CommandHandlerBuilder<C, E, S> {
  private final CommandCases<C, S, Effect<E, S>> cases = new CommandCases<>();

  CommandHandlerBuilder() {}

  /** @return cases for every state */
  public ForState<S> forAnyState() {
    return new ForState<>(CommandCases.States.any());
  }

  /**
   * @param type a class of states (null never matches)
   * @param <T> that class
   * @return cases for states of that class
   */
  public <T extends S> ForState<T> forStateType(Class<T> type) {
    return new ForState<>(CommandCases.States.ofType(type));
  }

  /**
   * @param condition which states
   * @return cases for the states that satisfy it
   */
  public ForState<S> forState(Predicate<S> condition) {
    return new ForState<>(CommandCases.States.where(condition));
  }

  /** @return the handler of every case added so far */
  public CommandHandler<C, E, S> build() {
    BiFunction<S, C, Effect<E, S>> h = cases.handler(EffectFactories.<E, S>instance().unhandled());
    return h::apply;
  }


  /**
   * The cases for some states.
   *
   * @param <T> the class of those states
   */
  public final class ForState<T> {
    private final CommandCases.States<S, T> states;

    ForState(CommandCases.States<S, T> states) {
      this.states = states;
    }

    /**
     * @param type a class of commands
     * @param handler the effect, from the state and the command
     * @param <X> that class
     * @return these cases
     */
    public <X extends C> ForState<T> onCommand(Class<X> type, BiFunction<T, X, Effect<E, S>> handler) {
      cases.add(states, type, handler);
      return this;
    }

    /**
     * @param type a class of commands
     * @param handler the effect, from the command alone
     * @param <X> that class
     * @return these cases
     */
    public <X extends C> ForState<T> onCommand(Class<X> type, Function<X, Effect<E, S>> handler) {
      cases.add(states, type, (state, c) -> handler.apply(c));
      return this;
    }

    /**
     * @param handler the effect for any command these states get that no earlier case matched
     * @return these cases
     */
    public ForState<T> onAnyCommand(BiFunction<T, C, Effect<E, S>> handler) {
      cases.addAny(states, handler);
      return this;
    }

    /** @return the handler of every case added so far (to any state) */
    public CommandHandler<C, E, S> build() {
      return CommandHandlerBuilder.this.build();
    }
  }
}
