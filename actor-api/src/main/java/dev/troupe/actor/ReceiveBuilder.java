package dev.troupe.actor;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Builds an {@link AbstractActor.Receive}: cases are tried in the order they were added.
 * Not thread-safe; build once per behaviour.
 */
public final class ReceiveBuilder {
  private final List<AbstractActor.Case> cases = new ArrayList<>();

  private ReceiveBuilder() {}

  /** @return an empty builder */
  public static ReceiveBuilder create() {
    return new ReceiveBuilder();
  }

  /**
   * Matches instances of a class.
   *
   * @param type the class
   * @param handler what to do with a match
   * @param <P> the message type
   * @return this builder
   */
  public <P> ReceiveBuilder match(Class<P> type, Procedure<P> handler) {
    return add(Objects.requireNonNull(type, "type"), null, handler);
  }

  /**
   * Matches instances of a class that pass a predicate.
   *
   * @param type the class
   * @param predicate the condition, tested only on instances of {@code type}
   * @param handler what to do with a match
   * @param <P> the message type
   * @return this builder
   */
  public <P> ReceiveBuilder match(Class<P> type, Predicate<P> predicate, Procedure<P> handler) {
    Objects.requireNonNull(predicate, "predicate");
    @SuppressWarnings("unchecked")
    Predicate<Object> p = (Predicate<Object>) predicate;
    return add(Objects.requireNonNull(type, "type"), p, handler);
  }

  /**
   * Matches messages equal to a value.
   *
   * @param value the value
   * @param handler what to do with a match
   * @param <P> the value type
   * @return this builder
   */
  public <P> ReceiveBuilder matchEquals(P value, Procedure<P> handler) {
    Objects.requireNonNull(value, "value");
    return add(value.getClass(), value::equals, handler);
  }

  /**
   * Matches messages equal to a value that also pass a predicate.
   *
   * @param value the value
   * @param predicate the extra condition
   * @param handler what to do with a match
   * @param <P> the value type
   * @return this builder
   */
  public <P> ReceiveBuilder matchEquals(P value, Predicate<P> predicate, Procedure<P> handler) {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(predicate, "predicate");
    @SuppressWarnings("unchecked")
    Predicate<Object> p = (Predicate<Object>) predicate;
    return add(value.getClass(), m -> value.equals(m) && p.test(m), handler);
  }

  /**
   * Matches every message; cases after it are never reached.
   *
   * @param handler what to do
   * @return this builder
   */
  public ReceiveBuilder matchAny(Procedure<Object> handler) {
    return add(null, null, handler);
  }

  private <P> ReceiveBuilder add(Class<?> type, Predicate<Object> filter, Procedure<P> handler) {
    Objects.requireNonNull(handler, "handler");
    @SuppressWarnings("unchecked")
    Procedure<Object> h = (Procedure<Object>) handler;
    cases.add(new AbstractActor.Case(type, filter, h));
    return this;
  }

  /** @return the behaviour */
  public AbstractActor.Receive build() {
    return new AbstractActor.Receive(cases.toArray(new AbstractActor.Case[0]));
  }
}
