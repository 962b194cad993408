package dev.troupe.actor.typed.internal;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.DeferredBehavior;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;

/**
 * What a typed actor stands for in telemetry (the {@code actor.class} of metrics and spans): every
 * typed actor is a {@link TypedActor}, which says nothing, so its props name the class its
 * behaviour was written in. An {@code AbstractBehavior} is its own class; {@code
 * Behaviors.setup(Counter::new)}, {@code withTimers}, {@code withStash} and {@code
 * Behaviors.receive(BiFunction)} are named after the class whose code holds their function (a
 * lambda's class is named after the class that wrote it); {@code supervise}, {@code withMdc},
 * {@code monitor} and {@code logMessages} after what they wrap; anything else (a built {@code
 * Receive}, a router) is {@code dev.troupe.actor.typed.Behavior}, as its logger is.
 *
 * <p>Computed once per classic props (children of one behaviour share them), and only when
 * telemetry is on.
 */
final class BehaviorNames {
  /** The name of a behaviour nothing tells more of. */
  static final String FUNCTIONAL = Behavior.class.getName();

  /** How many wrappers are looked through, at most. */
  private static final int MAX_DEPTH = 16;

  /** The class a function's code was written in: a lambda's class up to its {@code $$Lambda}. */
  private static final ClassValue<String> WRITTEN_IN =
      new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
          String name = type.getName();
          int lambda = name.indexOf("$$Lambda");
          return lambda > 0 ? name.substring(0, lambda) : name;
        }
      };

  private BehaviorNames() {}

  /**
   * @param behavior an actor's initial behaviour
   * @return the binary name of the class it stands for
   */
  static String of(Behavior<?> behavior) {
    Object o = behavior;
    for (int i = 0; i < MAX_DEPTH && o != null; i++) {
      if (o instanceof AbstractBehavior<?> || o instanceof DeferredBehavior<?> && !(o instanceof BehaviorImpl.Deferred<?>)) {
        return o.getClass().getName(); // a class the user wrote (an event-sourced behaviour is a deferred one)
      } else if (o instanceof BehaviorImpl.Deferred<?> d) {
        o = d.describedBy();
      } else if (o instanceof BehaviorImpl.ReceiveFunction<?> f) {
        o = f.describedBy();
      } else if (o instanceof Behavior<?>) {
        return FUNCTIONAL;
      } else {
        return WRITTEN_IN.get(o.getClass());
      }
    }
    return FUNCTIONAL;
  }
}
