package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.ExtensibleBehavior;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.internal.FirstCase;
import java.lang.reflect.Modifier;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A behaviour made of cases, built once by {@link ReceiveBuilder} or {@link BehaviorBuilder}: a
 * message goes to the first case whose class (and value, for {@code onMessageEquals}) matches, a
 * signal likewise; no case matches: {@code Behaviors.unhandled()}. Matching allocates nothing.
 *
 * @param <T> the type of message it accepts
 */
public final class Receive<T> extends ExtensibleBehavior<T> {
  /** The first message case, or null for none: kept apart so that its test needs no array load. */
  private final Case<T> first;
  private final Case<T>[] messages;
  private final Case<T>[] signals;
  /**
   * What the first case matches when one compare decides it and a typed actor never takes it for
   * itself (see {@link FirstCase}): an enum constant ({@code onMessageEquals}) or a final class with
   * no test ({@code onMessage} of a record); null otherwise.
   */
  final Object shortcut;
  /** Whether {@link #shortcut} is a value (else a class). */
  final boolean shortcutIsValue;

  Receive(Case<T>[] messages, Case<T>[] signals) {
    Case<T> f = messages.length == 0 ? null : messages[0];
    this.first = f;
    this.messages = messages;
    this.signals = signals;
    if (f != null && f.value != null && f.identityOnly) {
      shortcut = f.value;
      shortcutIsValue = true;
    } else if (f != null && f.exact && f.test == null && !FirstCase.isActorsOwnClass(f.type)) {
      shortcut = f.type;
      shortcutIsValue = false;
    } else {
      shortcut = null;
      shortcutIsValue = false;
    }
  }

  /**
   * The first case's handler when the message is what {@link #shortcut} decides by one compare.
   *
   * @return what the handler returned, or {@link FirstCase#MISS}
   */
  Behavior<T> applyShortcut(Object msg) {
    Object m = shortcut;
    if (m != null && (shortcutIsValue ? m == msg : m == msg.getClass())) {
      return first.applyFirst(msg);
    }
    return FirstCase.miss();
  }

  /** What {@link #receive} does when {@link #applyShortcut} missed: the first case is not tested twice. */
  Behavior<T> receiveAfterMiss(ActorContext<T> ctx, T msg) {
    return shortcut != null ? receiveLater(msg) : receive(ctx, msg);
  }

  /** @return the first message case, or null for none */
  Case<T> firstCase() {
    return first;
  }

  /**
   * The first case calls its handler from its own method ({@code Case.applyFirst}), the others
   * from {@code Case.apply}: the JIT profiles a call site per method, and every behaviour of the
   * JVM shares these two, so a site that sees at most two handler classes has its handlers inlined
   * and one that sees more makes a table call per message. A behaviour's first case is often the
   * one its steady traffic matches (a response, a request, a ball), the later ones its rarer
   * messages (a start, a setup, a failure); with one shared site, those rare handlers were enough
   * to turn the call of the hot ones into a table call.
   */
  @Override
  public Behavior<T> receive(ActorContext<T> ctx, T msg) {
    Case<T> f = first;
    if (f != null && f.matches(msg)) {
      return f.applyFirst(msg);
    }
    return receiveLater(msg);
  }

  /**
   * The cases after the first, in their order; a method of its own so that {@link #receive}, on
   * the path of every message, stays small enough to inline into its caller. {@code
   * AbstractBehavior} calls it directly when it has already tested the first case.
   */
  Behavior<T> receiveLater(T msg) {
    Case<T>[] cs = messages;
    for (int i = 1; i < cs.length; i++) {
      Case<T> c = cs[i];
      if (c.matches(msg)) {
        return c.apply(msg);
      }
    }
    return Behaviors.unhandled();
  }

  @Override
  public Behavior<T> receiveSignal(ActorContext<T> ctx, Signal signal) {
    for (Case<T> c : signals) {
      if (c.matches(signal)) {
        return c.apply(signal);
      }
    }
    return Behaviors.unhandled();
  }

  @Override
  public String toString() {
    return "Receive(" + messages.length + " message cases, " + signals.length + " signal cases)";
  }

  /**
   * One case: a value the message must be (for {@code onMessageEquals}), or a class (null: any) and
   * an optional test it must pass; and the handler, a function of the message or (for {@code
   * onMessageEquals}) a supplier called directly, so that a message reaches the user's code through
   * one call that depends on the case, not two.
   *
   * <p>A value case compares identity first: an enum constant or a singleton matches without a
   * call of {@code equals}, and an enum constant (whose {@code equals} is identity) never calls it.
   */
  static final class Case<T> {
    final Class<?> type;
    /** Whether {@code type} is a final class (records, enums without bodies): then one compare. */
    final boolean exact;
    final Object value;
    final boolean identityOnly;
    final Predicate<Object> test;
    final Function<Object, Behavior<T>> handler;
    final Supplier<Behavior<T>> supplier;

    @SuppressWarnings("unchecked")
    Case(Class<?> type, Predicate<?> test, Function<?, Behavior<T>> handler) {
      this.type = type;
      this.exact = type != null && Modifier.isFinal(type.getModifiers()) && !type.isArray();
      this.value = null;
      this.identityOnly = false;
      this.test = (Predicate<Object>) test;
      this.handler = (Function<Object, Behavior<T>>) Objects.requireNonNull(handler, "handler");
      this.supplier = null;
    }

    Case(Object value, Supplier<Behavior<T>> supplier) {
      this.type = null;
      this.exact = false;
      this.value = Objects.requireNonNull(value, "value");
      this.identityOnly = value instanceof Enum<?>;
      this.test = null;
      this.handler = null;
      this.supplier = Objects.requireNonNull(supplier, "handler");
    }

    boolean matches(Object m) {
      Object v = value;
      if (v != null) {
        return v == m || (!identityOnly && v.equals(m));
      }
      Class<?> t = type;
      return (t == null || (exact ? m != null && m.getClass() == t : t.isInstance(m)))
          && (test == null || test.test(m));
    }

    Behavior<T> apply(Object m) {
      Supplier<Behavior<T>> s = supplier;
      return s != null ? s.get() : handler.apply(m);
    }

    /**
     * {@link #apply}, for the first case of a {@link Receive}: the same code in a method of its
     * own, so that its calls of the handler have their own profile (see {@link Receive#receive}).
     */
    Behavior<T> applyFirst(Object m) {
      Supplier<Behavior<T>> s = supplier;
      return s != null ? s.get() : handler.apply(m);
    }
  }
}
