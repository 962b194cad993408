package dev.troupe.persistence.typed.javadsl;

import java.util.function.Consumer;

/**
 * An {@link Effect} known to reply to its command: made by {@link EffectFactories#reply
 * Effect().reply(...)}, {@link EffectFactories#noReply() Effect().noReply()}, {@link
 * EffectFactories#stash() Effect().stash()} (the command gets its reply when it is handled again)
 * and by {@link Effect#thenReply thenReply} or {@link Effect#thenNoReply() thenNoReply()} on any
 * effect. Further steps keep it one. The command handler of an {@link
 * EventSourcedBehaviorWithEnforcedReplies} must answer every command with one, which the compiler
 * checks: {@code Effect().persist(event)} alone is a plain {@link Effect} and does not compile
 * there.
 *
 * @param <E> the events
 * @param <S> the state
 */
public interface ReplyEffect<E, S> extends Effect<E, S> {
  /**
   * @param callback runs with the state after the events
   * @return this effect and then the callback
   */
  @Override
  ReplyEffect<E, S> thenRun(Consumer<S> callback);

  /** @return this effect and then the actor stops (see {@link Effect#thenStop()}) */
  @Override
  ReplyEffect<E, S> thenStop();

  /** @return this effect and then the stashed commands are handled, oldest first */
  @Override
  ReplyEffect<E, S> thenUnstashAll();
}
