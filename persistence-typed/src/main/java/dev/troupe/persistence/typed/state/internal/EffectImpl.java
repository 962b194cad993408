package dev.troupe.persistence.typed.state.internal;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.persistence.typed.internal.Steps;
import dev.troupe.persistence.typed.state.javadsl.Effect;
import dev.troupe.persistence.typed.state.javadsl.ReplyEffect;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A durable-state effect: its kind, the state to persist (for {@code PERSIST}), and the steps that
 * run after the write. Immutable; a {@code then...} copies the short step list. An effect known to
 * reply is a {@link Replying}, so that a plain effect cast to a {@link ReplyEffect} fails; the
 * runtime treats both alike.
 *
 * @param <S> the state
 */
public sealed class EffectImpl<S> implements Effect<S> permits EffectImpl.Replying {
  /** What the command asked for besides its steps. */
  enum Kind { PERSIST, DELETE, NONE, UNHANDLED, STASH }

  private static final EffectImpl<?> NONE = new EffectImpl<>(Kind.NONE, null, Steps.none());
  private static final EffectImpl<?> UNHANDLED = new EffectImpl<>(Kind.UNHANDLED, null, Steps.none());
  private static final EffectImpl<?> DELETE = new EffectImpl<>(Kind.DELETE, null, Steps.none());
  private static final Replying<?> STASH = new Replying<>(Kind.STASH, null, Steps.none());
  private static final Replying<?> NONE_NO_REPLY = new Replying<>(Kind.NONE, null, Steps.none());
  private static final Replying<?> UNHANDLED_NO_REPLY = new Replying<>(Kind.UNHANDLED, null, Steps.none());

  final Kind kind;
  final S state;
  final Steps<S> steps;

  private EffectImpl(Kind kind, S state, Steps<S> steps) {
    this.kind = kind;
    this.state = state;
    this.steps = steps;
  }

  /**
   * @param state the new state to store
   * @param <S> the state
   * @return the effect
   */
  public static <S> Effect<S> persist(S state) {
    return new EffectImpl<>(Kind.PERSIST, Objects.requireNonNull(state, "state"), Steps.none());
  }

  /**
   * @param <S> the state
   * @return the stored state is deleted; the actor's state becomes the empty state
   */
  @SuppressWarnings("unchecked")
  public static <S> Effect<S> delete() {
    return (Effect<S>) DELETE;
  }

  /**
   * @param <S> the state
   * @return nothing to store
   */
  @SuppressWarnings("unchecked")
  public static <S> Effect<S> none() {
    return (Effect<S>) NONE;
  }

  /**
   * @param <S> the state
   * @return the command is unhandled
   */
  @SuppressWarnings("unchecked")
  public static <S> Effect<S> unhandled() {
    return (Effect<S>) UNHANDLED;
  }

  /**
   * @param <S> the state
   * @return the command is stashed (it gets its reply when it is handled again)
   */
  @SuppressWarnings("unchecked")
  public static <S> ReplyEffect<S> stash() {
    return (ReplyEffect<S>) STASH;
  }

  @Override
  public Effect<S> thenRun(Consumer<S> callback) {
    return new EffectImpl<>(kind, state, steps.thenRun(callback));
  }

  @Override
  public <R> ReplyEffect<S> thenReply(ActorRef<R> replyTo, Function<S, R> reply) {
    return new Replying<>(kind, state,
        steps.thenReply(replyTo, reply));
  }

  @Override
  @SuppressWarnings("unchecked")
  public ReplyEffect<S> thenNoReply() {
    if (steps.isEmpty() && kind == Kind.NONE) {
      return (ReplyEffect<S>) NONE_NO_REPLY;
    }
    if (steps.isEmpty() && kind == Kind.UNHANDLED) {
      return (ReplyEffect<S>) UNHANDLED_NO_REPLY;
    }
    return this instanceof Replying<S> r ? r : new Replying<>(kind, state, steps);
  }

  @Override
  public Effect<S> thenStop() {
    return new EffectImpl<>(kind, state, steps.thenStop());
  }

  @Override
  public Effect<S> thenUnstashAll() {
    return new EffectImpl<>(kind, state, steps.thenUnstashAll());
  }

  @Override
  public String toString() {
    return (this instanceof Replying ? "ReplyEffect(" : "Effect(") + kind + (state == null ? "" : " " + state)
        + (steps.isEmpty() ? "" : ", then " + steps) + ")";
  }

  /**
   * An effect known to reply: every further step keeps it one.
   *
   * @param <S> the state
   */
  static final class Replying<S> extends EffectImpl<S> implements ReplyEffect<S> {
    Replying(Kind kind, S state, Steps<S> steps) {
      super(kind, state, steps);
    }

    @Override
    public ReplyEffect<S> thenRun(Consumer<S> callback) {
      return new Replying<>(kind, state, steps.thenRun(callback));
    }

    @Override
    public ReplyEffect<S> thenStop() {
      return new Replying<>(kind, state, steps.thenStop());
    }

    @Override
    public ReplyEffect<S> thenUnstashAll() {
      return new Replying<>(kind, state, steps.thenUnstashAll());
    }
  }
}
