package dev.troupe.actor.typed.internal;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.javadsl.ActorContext;
import java.util.Objects;
import org.slf4j.Logger;

/**
 * A behaviour that sees each message (and signal) before the behaviour it wraps handles it, and
 * otherwise is that behaviour: what it returns is followed as the actor would follow it. {@code
 * Behaviors.monitor} tells a monitor the messages of a class; {@code Behaviors.logMessages} logs
 * every message and signal at debug level.
 *
 * @param <T> what the behaviour accepts
 */
abstract class Tap<T> extends Wrapper<T> {

  /** Sees a message before the wrapped behaviour. */
  abstract void onMessage(ActorContext<T> ctx, T msg);

  /** Sees a signal before the wrapped behaviour. */
  abstract void onSignal(ActorContext<T> ctx, Signal signal);

  @Override
  public final Behavior<T> receive(ActorContext<T> ctx, T msg) {
    onMessage(ctx, msg);
    return after(Interpreter.interpretMessage(current, ctx, msg), ctx);
  }

  @Override
  public final Behavior<T> receiveSignal(ActorContext<T> ctx, Signal signal) {
    onSignal(ctx, signal);
    return after(Interpreter.interpretSignal(current, ctx, signal), ctx);
  }

  /** A behaviour that starts {@code behavior} inside a fresh tap made by {@code make}. */
  private static <T> Behavior<T> wrap(Behavior<T> behavior, java.util.function.Supplier<Tap<T>> make) {
    Objects.requireNonNull(behavior, "behavior");
    return new BehaviorImpl.Deferred<T>() {
      @Override
      public Behavior<T> apply(ActorContext<T> ctx) {
        Tap<T> t = make.get();
        t.current = Interpreter.start(behavior, ctx);
        return t.current == BehaviorImpl.STOPPED ? t.current : t;
      }

      @Override
      public Object describedBy() {
        return behavior;
      }
    };
  }

  static <T> Behavior<T> monitor(Class<T> monitoredClass, ActorRef<T> monitor, Behavior<T> behavior) {
    Objects.requireNonNull(monitoredClass, "monitoredClass");
    Objects.requireNonNull(monitor, "monitor");
    return wrap(behavior, () -> new Tap<T>() {
      @Override
      void onMessage(ActorContext<T> ctx, T msg) {
        if (monitoredClass.isInstance(msg)) {
          monitor.tell(msg);
        }
      }

      @Override
      void onSignal(ActorContext<T> ctx, Signal signal) {}
    });
  }

  static <T> Behavior<T> logMessages(Behavior<T> behavior) {
    return wrap(behavior, () -> new Tap<T>() {
      @Override
      void onMessage(ActorContext<T> ctx, T msg) {
        Logger log = ctx.getLog();
        if (log.isDebugEnabled()) {
          log.debug("actor [{}] received message: {}", ctx.getSelf().path(), msg);
        }
      }

      @Override
      void onSignal(ActorContext<T> ctx, Signal signal) {
        Logger log = ctx.getLog();
        if (log.isDebugEnabled()) {
          log.debug("actor [{}] received signal: {}", ctx.getSelf().path(), signal);
        }
      }
    });
  }
}
