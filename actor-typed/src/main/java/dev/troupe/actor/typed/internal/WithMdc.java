package dev.troupe.actor.typed.internal;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.javadsl.ActorContext;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.slf4j.MDC;

/**
 * {@code Behaviors.withMdc}: slf4j MDC entries set around each message and signal the inner
 * behaviour handles (static ones, plus ones computed from the message), removed afterwards. Only
 * actors that ask for it pay for it.
 *
 * @param <T> what it accepts
 */
final class WithMdc<T> extends Wrapper<T> {
  private final Map<String, String> staticMdc;
  private final Function<T, Map<String, String>> perMessage;

  private WithMdc(Map<String, String> staticMdc, Function<T, Map<String, String>> perMessage) {
    this.staticMdc = staticMdc;
    this.perMessage = perMessage;
  }

  /**
   * @param staticMdc entries for every message
   * @param perMessage entries computed from each message, or null
   * @param behavior the inner behaviour
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  static <T> Behavior<T> of(
      Map<String, String> staticMdc, Function<T, Map<String, String>> perMessage, Behavior<T> behavior) {
    Map<String, String> fixed = Map.copyOf(Objects.requireNonNull(staticMdc, "staticMdc"));
    Objects.requireNonNull(behavior, "behavior");
    return new BehaviorImpl.Deferred<T>() {
      @Override
      public Behavior<T> apply(ActorContext<T> ctx) {
        WithMdc<T> w = new WithMdc<>(fixed, perMessage);
        w.current = Interpreter.start(behavior, ctx);
        return w.current == BehaviorImpl.STOPPED ? w.current : w;
      }

      @Override
      public Object describedBy() {
        return behavior;
      }
    };
  }

  @Override
  public Behavior<T> receive(ActorContext<T> ctx, T msg) {
    Map<String, String> dynamic = perMessage == null ? Map.of() : perMessage.apply(msg);
    put(staticMdc);
    put(dynamic);
    try {
      return after(Interpreter.interpretMessage(current, ctx, msg), ctx);
    } finally {
      remove(dynamic);
      remove(staticMdc);
    }
  }

  @Override
  public Behavior<T> receiveSignal(ActorContext<T> ctx, Signal signal) {
    put(staticMdc);
    try {
      return after(Interpreter.interpretSignal(current, ctx, signal), ctx);
    } finally {
      remove(staticMdc);
    }
  }

  private static void put(Map<String, String> entries) {
    entries.forEach(MDC::put);
  }

  private static void remove(Map<String, String> entries) {
    for (String k : entries.keySet()) {
      MDC.remove(k);
    }
  }
}
