package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.ExtensibleBehavior;
import dev.troupe.actor.typed.Signal;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A behaviour made of cases, built once by {@link ReceiveBuilder} or {@link BehaviorBuilder}: a
 * message goes to the first case whose class (and value, for {@code onMessageEquals}) matches, a
 * signal likewise; no case matches: {@code Behaviors.unhandled()}. Matching allocates nothing.
 *
 * @param <T> the type of message it accepts
 */
public final class Receive<T> extends ExtensibleBehavior<T> {
  private final Case<T>[] messages;
  private final Case<T>[] signals;

  Receive(Case<T>[] messages, Case<T>[] signals) {
    this.messages = messages;
    this.signals = signals;
  }

  @Override
  public Behavior<T> receive(ActorContext<T> ctx, T msg) {
    for (Case<T> c : messages) {
      if (c.matches(msg)) {
        return c.handler.apply(msg);
      }
    }
    return Behaviors.unhandled();
  }

  @Override
  public Behavior<T> receiveSignal(ActorContext<T> ctx, Signal signal) {
    for (Case<T> c : signals) {
      if (c.matches(signal)) {
        return c.handler.apply(signal);
      }
    }
    return Behaviors.unhandled();
  }

  @Override
  public String toString() {
    return "Receive(" + messages.length + " message cases, " + signals.length + " signal cases)";
  }

  /**
   * One case: a class (null: any), an optional value the message must equal, an optional test it
   * must pass, and the handler.
   */
  static final class Case<T> {
    final Class<?> type;
    final Object value;
    final Predicate<Object> test;
    final Function<Object, Behavior<T>> handler;

    @SuppressWarnings("unchecked")
    Case(Class<?> type, Object value, Predicate<?> test, Function<?, Behavior<T>> handler) {
      this.type = type;
      this.value = value;
      this.test = (Predicate<Object>) test;
      this.handler = (Function<Object, Behavior<T>>) Objects.requireNonNull(handler, "handler");
    }

    boolean matches(Object m) {
      return (type == null || type.isInstance(m))
          && (value == null || value.equals(m))
          && (test == null || test.test(m));
    }
  }
}
