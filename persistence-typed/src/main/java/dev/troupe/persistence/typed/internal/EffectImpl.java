package dev.troupe.persistence.typed.internal;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.persistence.typed.javadsl.Effect;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * An effect: its kind, its events, and the steps that run after them. Immutable; a {@code then...}
 * copies the step list, which is short.
 *
 * @param <E> the events
 * @param <S> the state
 */
public final class EffectImpl<E, S> implements Effect<E, S> {
  /** What the command asked for besides its steps. */
  enum Kind { PERSIST, NONE, UNHANDLED, STASH }

  /** A step after the events. */
  sealed interface Step<S> permits Run, Reply, Stop, UnstashAll {}

  record Run<S>(Consumer<S> callback) implements Step<S> {}

  record Reply<S, R>(ActorRef<R> replyTo, Function<S, R> reply) implements Step<S> {
    void send(S state) {
      replyTo.tell(reply.apply(state));
    }
  }

  record Stop<S>() implements Step<S> {}

  record UnstashAll<S>() implements Step<S> {}

  private static final EffectImpl<?, ?> NONE = new EffectImpl<>(Kind.NONE, List.of(), List.of());
  private static final EffectImpl<?, ?> UNHANDLED = new EffectImpl<>(Kind.UNHANDLED, List.of(), List.of());
  private static final EffectImpl<?, ?> STASH = new EffectImpl<>(Kind.STASH, List.of(), List.of());

  final Kind kind;
  final List<E> events;
  final List<Step<S>> steps;

  private EffectImpl(Kind kind, List<E> events, List<Step<S>> steps) {
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
    return events.isEmpty() ? none() : new EffectImpl<>(Kind.PERSIST, events, List.of());
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
   * @return the command is stashed
   */
  @SuppressWarnings("unchecked")
  public static <E, S> Effect<E, S> stash() {
    return (Effect<E, S>) STASH;
  }

  private EffectImpl<E, S> then(Step<S> step) {
    List<Step<S>> more = new ArrayList<>(steps.size() + 1);
    more.addAll(steps);
    more.add(step);
    return new EffectImpl<>(kind, events, List.copyOf(more));
  }

  @Override
  public Effect<E, S> thenRun(Consumer<S> callback) {
    return then(new Run<>(Objects.requireNonNull(callback, "callback")));
  }

  @Override
  public <R> Effect<E, S> thenReply(ActorRef<R> replyTo, Function<S, R> reply) {
    return then(new Reply<>(Objects.requireNonNull(replyTo, "replyTo"), Objects.requireNonNull(reply, "reply")));
  }

  @Override
  public Effect<E, S> thenStop() {
    return then(new Stop<>());
  }

  @Override
  public Effect<E, S> thenUnstashAll() {
    return then(new UnstashAll<>());
  }

  @Override
  public String toString() {
    return "Effect(" + kind + (events.isEmpty() ? "" : " " + events) + (steps.isEmpty() ? "" : ", then " + steps) + ")";
  }
}
