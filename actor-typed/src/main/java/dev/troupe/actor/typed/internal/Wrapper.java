package dev.troupe.actor.typed.internal;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.ExtensibleBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;

/**
 * A running behaviour that runs another one inside (supervision, MDC). Made per actor when the
 * wrapping value starts, so it may keep the inner behaviour in a field.
 *
 * @param <T> what it accepts
 */
abstract class Wrapper<T> extends ExtensibleBehavior<T> {
  /** The running inner behaviour (null while a supervisor restarts it). */
  Behavior<T> current;

  /**
   * Keeps what the inner behaviour returned: this wrapper stays the actor's behaviour ({@code
   * same}) unless the inner one stopped or left the message unhandled.
   */
  final Behavior<T> after(Behavior<T> next, ActorContext<T> ctx) {
    if (next == BehaviorImpl.SAME || next == current) {
      return BehaviorImpl.cast(BehaviorImpl.SAME);
    }
    if (next == BehaviorImpl.UNHANDLED || next == BehaviorImpl.STOPPED) {
      return next;
    }
    Behavior<T> started = Interpreter.start(next, ctx);
    if (started == BehaviorImpl.STOPPED) {
      return started;
    }
    current = started;
    return BehaviorImpl.cast(BehaviorImpl.SAME);
  }
}
