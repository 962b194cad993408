package dev.troupe.persistence.typed.internal;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.persistence.typed.javadsl.Effect;
import dev.troupe.persistence.typed.javadsl.ReplyEffect;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * An effect: its kind, its events, and the steps that run after them. Immutable; a {@code then...}
 * copies the step list, which is short. An effect known to reply is a {@link Replying}, so that a
 * plain effect cast to a {@link ReplyEffect} fails; the runtime treats both alike.
 *
 * @param <E> the events
 * @param <S> the state
 */
public sealed class EffectImpl<E, S> implements Effect<E, S> permits EffectImpl.Replying {
  /** What the command asked for besides its steps. */
  enum Kind { PERSIST, NONE, UNHANDLED, STASH }

  private static final EffectImpl<?, ?> NONE = new EffectImpl<>(Kind.NONE, List.of(), Steps.none());
  private static final EffectImpl<?, ?> UNHANDLED = new EffectImpl<>(Kind.UNHANDLED, List.of(), Steps.none());
  private static final Replying<?, ?> STASH = new Replying<>(Kind.STASH, List.of(), Steps.none());
  private static final Replying<?, ?> NONE_NO_REPLY = new Replying<>(Kind.NONE, List.of(), Steps.none());
  private static final Replying<?, ?> UNHANDLED_NO_REPLY = new Replying<>(Kind.UNHANDLED, List.of(), Steps.none());

  final Kind kind;
  final List<E> events;
  final Steps<S> steps;

  private EffectImpl(Kind kind, List<E> events, Steps<S> steps) {
    this.kind = kind;
    this.events = events;
    this.steps = steps;
  }

  /**
   * @param events what to persist (none: {@link #none()})
   * @param <E> the events
   * @param <S> the state
   * @return the effect
   */
  public static <E, S> Effect<E, S> persist(List<E> events) {
    return events.isEmpty() ? none() : new EffectImpl<>(Kind.PERSIST, events, Steps.none());
  }

  /**
   * @param <E> the events
   * @param <S> the state
   * @return nothing to persist
   */
  @SuppressWarnings("unchecked")
  public static <E, S> Effect<E, S> none() {
    return (Effect<E, S>) NONE;
  }

  /**
   * @param <E> the events
   * @param <S> the state
   * @return the command is unhandled
   */
  @SuppressWarnings("unchecked")
  public static <E, S> Effect<E, S> unhandled() {
    return (Effect<E, S>) UNHANDLED;
  }

  /**
   * @param <E> the events
   * @param <S> the state
   * @return the command is stashed (it gets its reply when it is handled again)
   */
  @SuppressWarnings("unchecked")
  public static <E, S> ReplyEffect<E, S> stash() {
    return (ReplyEffect<E, S>) STASH;
  }

  @Override
  public Effect<E, S> thenRun(Consumer<S> callback) {
    return new EffectImpl<>(kind, events, steps.thenRun(callback));
  }

  @Override
  public <R> ReplyEffect<E, S> thenReply(ActorRef<R> replyTo, Function<S, R> reply) {
    return new Replying<>(kind, events,
        steps.thenReply(replyTo, reply));
  }

  @Override
  @SuppressWarnings("unchecked")
  public ReplyEffect<E, S> thenNoReply() {
    if (steps.isEmpty() && kind == Kind.NONE) {
      return (ReplyEffect<E, S>) NONE_NO_REPLY;
    }
    if (steps.isEmpty() && kind == Kind.UNHANDLED) {
      return (ReplyEffect<E, S>) UNHANDLED_NO_REPLY;
    }
    return this instanceof Replying<E, S> r ? r : new Replying<>(kind, events, steps);
  }

  @Override
  public Effect<E, S> thenStop() {
    return new EffectImpl<>(kind, events, steps.thenStop());
  }

  @Override
  public Effect<E, S> thenUnstashAll() {
    return new EffectImpl<>(kind, events, steps.thenUnstashAll());
  }

  @Override
  public String toString() {
    return (this instanceof Replying ? "ReplyEffect(" : "Effect(") + kind + (events.isEmpty() ? "" : " " + events)
        + (steps.isEmpty() ? "" : ", then " + steps) + ")";
  }

  /**
   * An effect known to reply: every further step keeps it one.
   *
   * @param <E> the events
   * @param <S> the state
   */
  static final class Replying<E, S> extends EffectImpl<E, S> implements ReplyEffect<E, S> {
    Replying(Kind kind, List<E> events, Steps<S> steps) {
      super(kind, events, steps);
    }

    @Override
    public ReplyEffect<E, S> thenRun(Consumer<S> callback) {
      return new Replying<>(kind, events, steps.thenRun(callback));
    }

    @Override
    public ReplyEffect<E, S> thenStop() {
      return new Replying<>(kind, events, steps.thenStop());
    }

    @Override
    public ReplyEffect<E, S> thenUnstashAll() {
      return new Replying<>(kind, events, steps.thenUnstashAll());
    }
  }
}
