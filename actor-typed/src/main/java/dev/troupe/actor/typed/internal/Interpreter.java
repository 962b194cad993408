package dev.troupe.actor.typed.internal;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.DeferredBehavior;
import dev.troupe.actor.typed.ExtensibleBehavior;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Receive;

/**
 * Runs behaviours: starting (building deferred behaviours), handing a message or signal to a
 * running behaviour, and turning what it returned into the behaviour to keep. Used by the actor
 * that runs a behaviour, by the wrappers (supervision, MDC), by {@code StashBuffer.unstashAll} and
 * by the testkit's synchronous {@code BehaviorTestKit}.
 */
public final class Interpreter {
  private Interpreter() {}

  /**
   * Builds a behaviour until it is one that can receive: deferred behaviours are applied to the
   * context.
   *
   * @param behavior the behaviour
   * @param ctx the actor's context
   * @param <T> what it accepts
   * @return a running behaviour, or {@code STOPPED}
   * @throws IllegalArgumentException for {@code same} or {@code unhandled}, which cannot start
   */
  public static <T> Behavior<T> start(Behavior<T> behavior, ActorContext<T> ctx) {
    Behavior<T> b = behavior;
    // A running behaviour first, by a class test: this is called on every change of behaviour, and
    // the test for Starting (an interface) would scan the classes' interfaces when it fails.
    while (!(b instanceof ExtensibleBehavior)) {
      if (b instanceof DeferredBehavior<T> d) {
        b = d.apply(ctx);
      } else if (b instanceof BehaviorImpl.Starting<?> s) {
        @SuppressWarnings("unchecked")
        BehaviorImpl.Starting<T> starting = (BehaviorImpl.Starting<T>) s;
        b = starting.start(ctx);
      } else {
        break;
      }
    }
    if (b == BehaviorImpl.SAME || b == BehaviorImpl.UNHANDLED || b == null) {
      throw new IllegalArgumentException(
          b + " cannot be an actor's behaviour (returned by " + behavior + "): return a behaviour");
    }
    if (!(b instanceof ExtensibleBehavior)) {
      throw new IllegalArgumentException("unknown kind of behaviour: " + b.getClass().getName());
    }
    return b;
  }

  /**
   * Hands a message to a running behaviour.
   *
   * @param behavior a behaviour {@link #start} returned
   * @param ctx the actor's context
   * @param msg the message
   * @param <T> what it accepts
   * @return what the behaviour returned (may be a marker or deferred)
   */
  public static <T> Behavior<T> interpretMessage(Behavior<T> behavior, ActorContext<T> ctx, T msg) {
    // The two common kinds first, by class test: AbstractBehavior.receive is final and Receive is
    // a final class, so both calls below are direct and inline into the caller. The virtual call
    // at the end is shared by every behaviour of the JVM; where an application runs more than two
    // behaviour classes it is megamorphic (a table call that nothing inlines through).
    if (behavior instanceof AbstractBehavior<T> ab) {
      return ab.receive(ctx, msg);
    }
    if (behavior instanceof Receive<T> r) {
      return r.receive(ctx, msg);
    }
    return ((ExtensibleBehavior<T>) behavior).receive(ctx, msg);
  }

  /**
   * Hands a signal to a running behaviour.
   *
   * @param behavior a behaviour {@link #start} returned
   * @param ctx the actor's context
   * @param signal the signal
   * @param <T> what it accepts
   * @return what the behaviour returned
   */
  public static <T> Behavior<T> interpretSignal(Behavior<T> behavior, ActorContext<T> ctx, Signal signal) {
    return ((ExtensibleBehavior<T>) behavior).receiveSignal(ctx, signal);
  }

  /**
   * The behaviour to keep after {@code current} returned {@code next}: {@code current} for {@code
   * same} and {@code unhandled}, {@code STOPPED} for stopped, else {@code next} started.
   *
   * @param next what the behaviour returned
   * @param current the behaviour that returned it
   * @param ctx the actor's context
   * @param <T> what it accepts
   * @return the running behaviour to keep, or {@code STOPPED}
   */
  public static <T> Behavior<T> canonicalize(Behavior<T> next, Behavior<T> current, ActorContext<T> ctx) {
    if (next == BehaviorImpl.SAME || next == BehaviorImpl.UNHANDLED || next == current) {
      return current;
    }
    if (next == BehaviorImpl.STOPPED) {
      return next;
    }
    return start(next, ctx);
  }

  /**
   * @param b a behaviour
   * @return whether it is not {@code stopped}
   */
  public static boolean isAlive(Behavior<?> b) {
    return b != BehaviorImpl.STOPPED;
  }

  /**
   * @param b a behaviour
   * @return whether it is {@code unhandled}
   */
  public static boolean isUnhandled(Behavior<?> b) {
    return b == BehaviorImpl.UNHANDLED;
  }
}
