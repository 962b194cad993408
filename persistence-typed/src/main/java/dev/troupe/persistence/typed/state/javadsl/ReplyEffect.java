package dev.troupe.persistence.typed.state.javadsl;

import java.util.function.Consumer;

/**
 * An {@link Effect} known to reply to its command: made by {@link EffectFactories#reply
 * Effect().reply(...)}, {@link EffectFactories#noReply() Effect().noReply()}, {@link
 * EffectFactories#stash() Effect().stash()} and by {@link Effect#thenReply thenReply} or {@link
 * Effect#thenNoReply() thenNoReply()} on any effect. Further steps keep it one. The command handler
 * of a {@link DurableStateBehaviorWithEnforcedReplies} must answer every command with one, which
 * the compiler checks.
 *
 * @param <S> the state
 */
public interface ReplyEffect<S> extends Effect<S> {
  /**
   * @param callback runs with the state after the write
   * @return this effect and then the callback
   */
  @Override
  ReplyEffect<S> thenRun(Consumer<S> callback);

  /** @return this effect and then the actor stops (see {@link Effect#thenStop()}) */
  @Override
  ReplyEffect<S> thenStop();

  /** @return this effect and then the stashed commands are handled, oldest first */
  @Override
  ReplyEffect<S> thenUnstashAll();
}
