package dev.troupe.persistence.typed.javadsl;

import dev.troupe.persistence.typed.internal.CommandCases;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Builds a {@link CommandHandlerWithReply} from cases, per state, as {@link CommandHandlerBuilder}
 * does, except that every case answers with a {@link ReplyEffect}: a case that could answer with a
 * plain {@link Effect} (e.g. {@code Effect().persist(event)} without {@code thenReply}) does not
 * compile. The first case whose state condition and command class match handles a command; a
 * command no case matches is unhandled (published as such) and gets no reply.
 *
 * <pre>{@code
 * CommandHandlerWithReplyBuilder<Command, Event, Account> b = newCommandHandlerWithReplyBuilder();
 * b.forStateType(Closed.class)
 *     .onCommand(Deposit.class, (account, c) -> Effect().reply(c.replyTo(), Result.rejected("closed")));
 * b.forStateType(Open.class)
 *     .onCommand(Deposit.class, (account, c) -> Effect().persist(new Deposited(c.amount()))
 *         .thenReply(c.replyTo(), after -> Result.ok(after)));
 * return b.build();
 * }</pre>
 *
 * @param <C> the commands
 * @param <E> the events
 * @param <S> the state
 */
public final class CommandHandlerWithReplyBuilder<C, E, S> {
  private final CommandCases<C, S, ReplyEffect<E, S>> cases = new CommandCases<>();

  CommandHandlerWithReplyBuilder() {}

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
  public CommandHandlerWithReply<C, E, S> build() {
    BiFunction<S, C, ReplyEffect<E, S>> h = cases.handler(EffectFactories.<E, S>instance().unhandled().thenNoReply());
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
     * @param handler the effect, which replies, from the state and the command
     * @param <X> that class
     * @return these cases
     */
    public <X extends C> ForState<T> onCommand(Class<X> type, BiFunction<T, X, ReplyEffect<E, S>> handler) {
      cases.add(states, type, handler);
      return this;
    }

    /**
     * @param type a class of commands
     * @param handler the effect, which replies, from the command alone
     * @param <X> that class
     * @return these cases
     */
    public <X extends C> ForState<T> onCommand(Class<X> type, Function<X, ReplyEffect<E, S>> handler) {
      cases.add(states, type, (state, c) -> handler.apply(c));
      return this;
    }

    /**
     * @param handler the effect, which replies, for any command these states get that no earlier
     *     case matched
     * @return these cases
     */
    public ForState<T> onAnyCommand(BiFunction<T, C, ReplyEffect<E, S>> handler) {
      cases.addAny(states, handler);
      return this;
    }

    /** @return the handler of every case added so far (to any state) */
    public CommandHandlerWithReply<C, E, S> build() {
      return CommandHandlerWithReplyBuilder.this.build();
    }
  }
}
