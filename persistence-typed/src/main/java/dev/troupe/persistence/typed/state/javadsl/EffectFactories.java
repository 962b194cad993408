package dev.troupe.persistence.typed.state.javadsl;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.persistence.typed.state.internal.EffectImpl;
import java.util.Objects;

/**
 * The effects a durable-state command handler may answer with ({@link
 * DurableStateBehavior#Effect()}). Those known to reply ({@link #reply reply}, {@link #noReply()},
 * {@link #stash()}) are {@link ReplyEffect}s, as is any effect after {@code thenReply} or {@code
 * thenNoReply()}.
 *
 * @param <S> the state
 */
public final class EffectFactories<S> {
  private static final EffectFactories<?> INSTANCE = new EffectFactories<>();

  private EffectFactories() {}

  @SuppressWarnings("unchecked")
  static <S> EffectFactories<S> instance() {
    return (EffectFactories<S>) INSTANCE;
  }

  /**
   * @param state the actor's new state, to store in place of the old one (with the next revision);
   *     commands wait until it is stored. Keep it immutable: the store may keep the object itself
   * @return the effect
   */
  public Effect<S> persist(S state) {
    return EffectImpl.persist(state);
  }

  /**
   * The stored state is deleted (its revision is kept, so numbering goes on); the actor's state
   * becomes {@link DurableStateBehavior#emptyState()}, as it is after a recovery that finds none.
   *
   * @return the effect
   */
  public Effect<S> delete() {
    return EffectImpl.delete();
  }

  /** @return nothing to store (the {@code then...} steps still run) */
  public Effect<S> none() {
    return EffectImpl.none();
  }

  /** @return the command is unhandled (published as such) */
  public Effect<S> unhandled() {
    return EffectImpl.unhandled();
  }

  /** @return the actor stops */
  public Effect<S> stop() {
    return EffectImpl.<S>none().thenStop();
  }

  /**
   * The command waits, to be handled again after {@link #unstashAll()} or {@link
   * Effect#thenUnstashAll()}: it gets its reply then, so this is a {@link ReplyEffect}. A command
   * stashed beyond {@code troupe.persistence.typed.stash-capacity} goes to dead letters instead.
   *
   * @return the command is stashed
   */
  public ReplyEffect<S> stash() {
    return EffectImpl.stash();
  }

  /** @return the stashed commands are handled, oldest first */
  public Effect<S> unstashAll() {
    return EffectImpl.<S>none().thenUnstashAll();
  }

  /**
   * @param replyTo who gets the reply
   * @param reply the reply
   * @param <R> its type
   * @return nothing stored, a reply sent
   */
  public <R> ReplyEffect<S> reply(ActorRef<R> replyTo, R reply) {
    Objects.requireNonNull(reply, "reply");
    return EffectImpl.<S>none().thenReply(replyTo, s -> reply);
  }

  /**
   * Nothing stored and no reply, on purpose: for a command that asks for none. Same as {@code
   * none().thenNoReply()}.
   *
   * @return nothing stored, as an effect that replies
   */
  public ReplyEffect<S> noReply() {
    return EffectImpl.<S>none().thenNoReply();
  }
}
