package dev.troupe.actor.typed.internal;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.SupervisorStrategy;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.StashBuffer;
import dev.troupe.actor.typed.javadsl.TimerScheduler;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/** The deferred behaviours {@code Behaviors} hands out, built from this package's classes. */
public final class Factories {
  private Factories() {}

  /**
   * @param behavior the supervised behaviour
   * @param type the exceptions handled
   * @param strategy what to do
   * @param <T> what it accepts
   * @return the deferred supervisor
   */
  public static <T> Behavior<T> supervise(
      Behavior<T> behavior, Class<? extends Throwable> type, SupervisorStrategy strategy) {
    return Supervisor.supervise(behavior, type, strategy);
  }

  /**
   * @param factory builds the behaviour from the actor's timers
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  public static <T> Behavior<T> withTimers(Function<TimerScheduler<T>, Behavior<T>> factory) {
    Objects.requireNonNull(factory, "factory");
    return new BehaviorImpl.Deferred<T>() {
      @Override
      public Behavior<T> apply(ActorContext<T> ctx) {
        return factory.apply(InternalContext.of(ctx).timers());
      }

      @Override
      public Object describedBy() {
        return factory;
      }
    };
  }

  /**
   * @param capacity the stash's capacity
   * @param factory builds the behaviour from a new stash
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  public static <T> Behavior<T> withStash(int capacity, Function<StashBuffer<T>, Behavior<T>> factory) {
    Objects.requireNonNull(factory, "factory");
    if (capacity < 1) {
      throw new IllegalArgumentException("stash capacity must be >= 1, was " + capacity);
    }
    return new BehaviorImpl.Deferred<T>() {
      @Override
      public Behavior<T> apply(ActorContext<T> ctx) {
        return factory.apply(new StashBufferImpl<>(capacity, ctx));
      }

      @Override
      public Object describedBy() {
        return factory;
      }
    };
  }

  /**
   * @param staticMdc entries for every message
   * @param perMessage entries from each message, or null
   * @param behavior the inner behaviour
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  public static <T> Behavior<T> withMdc(
      Map<String, String> staticMdc, Function<T, Map<String, String>> perMessage, Behavior<T> behavior) {
    return WithMdc.of(staticMdc, perMessage, behavior);
  }

  /**
   * @param monitoredClass the class of messages copied to the monitor
   * @param monitor who gets the copies
   * @param behavior the inner behaviour
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  public static <T> Behavior<T> monitor(
      Class<T> monitoredClass, dev.troupe.actor.typed.ActorRef<T> monitor, Behavior<T> behavior) {
    return Tap.monitor(monitoredClass, monitor, behavior);
  }

  /**
   * @param behavior the inner behaviour
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  public static <T> Behavior<T> logMessages(Behavior<T> behavior) {
    return Tap.logMessages(behavior);
  }
}
