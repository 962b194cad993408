package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What {@link ReceiveBuilder} and {@link BehaviorBuilder} share: the cases, tried in the order they
 * were added, copied into a {@link Receive} when built.
 *
 * @param <T> the type of message the behaviour accepts
 * @param <B> the builder's own type
 */
public abstract class CaseBuilder<T, B extends CaseBuilder<T, B>> {
  private final List<Receive.Case<T>> messages = new ArrayList<>();
  private final List<Receive.Case<T>> signals = new ArrayList<>();

  CaseBuilder() {}

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  @SuppressWarnings("unchecked")
  final Receive<T> receive() {
    return new Receive<>(
        messages.toArray((Receive.Case<T>[]) new Receive.Case<?>[0]),
        signals.toArray((Receive.Case<T>[]) new Receive.Case<?>[0]));
  }

  /**
   * Handles messages of a class.
   *
   * @param type the class
   * @param handler returns the next behaviour ({@code this} to keep it)
   * @param <M> the class's type
   * @return this builder
   */
  public <M extends T> B onMessage(Class<M> type, Function<M, Behavior<T>> handler) {
    messages.add(new Receive.Case<>(Objects.requireNonNull(type, "type"), null, handler));
    return self();
  }

  /**
   * Handles messages of a class that pass a test.
   *
   * @param type the class
   * @param test the test
   * @param handler returns the next behaviour
   * @param <M> the class's type
   * @return this builder
   */
  public <M extends T> B onMessage(
      Class<M> type, Predicate<M> test, Function<M, Behavior<T>> handler) {
    messages.add(new Receive.Case<>(
        Objects.requireNonNull(type, "type"), Objects.requireNonNull(test, "test"), handler));
    return self();
  }

  /**
   * Handles messages equal to a value (e.g. an enum constant or a singleton).
   *
   * @param value the value
   * @param handler returns the next behaviour
   * @return this builder
   */
  public B onMessageEquals(T value, Supplier<Behavior<T>> handler) {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(handler, "handler");
    messages.add(new Receive.Case<>(value, handler));
    return self();
  }

  /**
   * Handles every message no earlier case matched.
   *
   * @param handler returns the next behaviour
   * @return this builder
   */
  public B onAnyMessage(Function<T, Behavior<T>> handler) {
    messages.add(new Receive.Case<>(null, null, handler));
    return self();
  }

  /**
   * Handles signals of a class ({@code PostStop.class}, {@code Terminated.class}, ...).
   *
   * @param type the class
   * @param handler returns the next behaviour
   * @param <S> the class's type
   * @return this builder
   */
  public <S extends Signal> B onSignal(Class<S> type, Function<S, Behavior<T>> handler) {
    signals.add(new Receive.Case<>(Objects.requireNonNull(type, "type"), null, handler));
    return self();
  }
}
