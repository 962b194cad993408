package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.SupervisorStrategy;
import dev.troupe.actor.typed.internal.BehaviorImpl;
import dev.troupe.actor.typed.internal.Factories;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Factories of behaviours, the functional style. A behaviour returns the next one for every message:
 * {@link #same()} keeps it, {@link #stopped()} stops the actor. The markers ({@code same}, {@code
 * unhandled}, {@code stopped}, {@code empty}, {@code ignore}) are singletons; builders build once.
 *
 * <p>With a sealed interface as the protocol, {@link #receiveMessage} and a {@code switch} read well
 * on Java 21 (the library itself builds for Java 17):
 *
 * <pre>{@code
 * static Behavior<Command> counter(int n) {
 *   return Behaviors.receiveMessage(msg -> switch (msg) {
 *     case Increment i -> counter(n + i.by());
 *     case Get g -> { g.replyTo().tell(n); yield Behaviors.same(); }
 *   });
 * }
 * }</pre>
 */
public final class Behaviors {
  private Behaviors() {}

  /**
   * A behaviour built when the actor starts (and again when it restarts), with its context.
   *
   * @param factory builds the behaviour
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  public static <T> Behavior<T> setup(Function<ActorContext<T>, Behavior<T>> factory) {
    return new BehaviorImpl.Setup<>(factory);
  }

  /**
   * A builder of cases by message class.
   *
   * @param type the protocol's type
   * @param <T> the protocol
   * @return a new builder
   */
  public static <T> BehaviorBuilder<T> receive(Class<T> type) {
    Objects.requireNonNull(type, "type");
    return new BehaviorBuilder<>();
  }

  /**
   * A behaviour of one function of the context and the message; signals are unhandled.
   *
   * @param onMessage the handler
   * @param <T> what it accepts
   * @return the behaviour
   */
  public static <T> Behavior<T> receive(BiFunction<ActorContext<T>, T, Behavior<T>> onMessage) {
    return new BehaviorImpl.ReceiveFunction<>(onMessage, null);
  }

  /**
   * A behaviour of two functions: one for messages, one for signals.
   *
   * @param onMessage the message handler
   * @param onSignal the signal handler
   * @param <T> what it accepts
   * @return the behaviour
   */
  public static <T> Behavior<T> receive(
      BiFunction<ActorContext<T>, T, Behavior<T>> onMessage,
      BiFunction<ActorContext<T>, Signal, Behavior<T>> onSignal) {
    return new BehaviorImpl.ReceiveFunction<>(onMessage, Objects.requireNonNull(onSignal, "onSignal"));
  }

  /**
   * A behaviour of one function of the message; signals are unhandled.
   *
   * @param onMessage the handler
   * @param <T> what it accepts
   * @return the behaviour
   */
  public static <T> Behavior<T> receiveMessage(Function<T, Behavior<T>> onMessage) {
    Objects.requireNonNull(onMessage, "onMessage");
    return new BehaviorImpl.ReceiveFunction<>((ctx, msg) -> onMessage.apply(msg), null);
  }

  /**
   * @param <T> what it accepts
   * @return "keep the current behaviour"
   */
  public static <T> Behavior<T> same() {
    return BehaviorImpl.cast(BehaviorImpl.SAME);
  }

  /**
   * @param <T> what it accepts
   * @return "keep the current behaviour; this message was not for it" (published as an {@link
   *     dev.troupe.actor.UnhandledMessage}; for a {@code Terminated} signal, the actor fails with a
   *     {@link dev.troupe.actor.DeathPactException})
   */
  public static <T> Behavior<T> unhandled() {
    return BehaviorImpl.cast(BehaviorImpl.UNHANDLED);
  }

  /**
   * @param <T> what it accepts
   * @return "stop this actor" (the current behaviour then gets {@link
   *     dev.troupe.actor.typed.PostStop})
   */
  public static <T> Behavior<T> stopped() {
    return BehaviorImpl.cast(BehaviorImpl.STOPPED);
  }

  /**
   * @param <T> what it accepts
   * @return a behaviour that leaves every message unhandled
   */
  public static <T> Behavior<T> empty() {
    return BehaviorImpl.cast(BehaviorImpl.EMPTY);
  }

  /**
   * @param <T> what it accepts
   * @return a behaviour that drops every message and signal silently
   */
  public static <T> Behavior<T> ignore() {
    return BehaviorImpl.cast(BehaviorImpl.IGNORE);
  }

  /**
   * Supervises a behaviour: {@code supervise(b).onFailure(IOException.class,
   * SupervisorStrategy.restart())}. Nest calls for several exception types (the innermost is asked
   * first); an exception no layer handles stops the actor.
   *
   * @param behavior the behaviour
   * @param <T> what it accepts
   * @return the step that names the exceptions and the strategy
   */
  public static <T> Supervise<T> supervise(Behavior<T> behavior) {
    return new Supervise<>(Objects.requireNonNull(behavior, "behavior"));
  }

  /**
   * The second step of {@link #supervise}.
   *
   * @param <T> what the behaviour accepts
   */
  public static final class Supervise<T> {
    private final Behavior<T> behavior;

    private Supervise(Behavior<T> behavior) {
      this.behavior = behavior;
    }

    /**
     * @param type the exceptions handled (and their subclasses)
     * @param strategy what to do
     * @return the supervised behaviour
     */
    public Behavior<T> onFailure(Class<? extends Throwable> type, SupervisorStrategy strategy) {
      return Factories.supervise(behavior, type, strategy);
    }

    /**
     * @param strategy what to do on any {@link Exception}
     * @return the supervised behaviour
     */
    public Behavior<T> onFailure(SupervisorStrategy strategy) {
      return onFailure(Exception.class, strategy);
    }
  }

  /**
   * A behaviour built with the actor's timers.
   *
   * @param factory builds the behaviour
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  public static <T> Behavior<T> withTimers(Function<TimerScheduler<T>, Behavior<T>> factory) {
    return Factories.withTimers(factory);
  }

  /**
   * A behaviour built with a new stash buffer of a capacity.
   *
   * @param capacity the most messages it keeps (at least 1)
   * @param factory builds the behaviour
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  public static <T> Behavior<T> withStash(int capacity, Function<StashBuffer<T>, Behavior<T>> factory) {
    return Factories.withStash(capacity, factory);
  }

  /**
   * A behaviour whose handling of each message runs with slf4j MDC entries.
   *
   * @param staticMdc entries for every message
   * @param behavior the behaviour
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  public static <T> Behavior<T> withMdc(Map<String, String> staticMdc, Behavior<T> behavior) {
    return Factories.withMdc(staticMdc, null, behavior);
  }

  /**
   * A behaviour whose handling of each message runs with slf4j MDC entries, some computed from the
   * message.
   *
   * @param staticMdc entries for every message
   * @param perMessage entries from each message
   * @param behavior the behaviour
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  public static <T> Behavior<T> withMdc(
      Map<String, String> staticMdc, Function<T, Map<String, String>> perMessage, Behavior<T> behavior) {
    return Factories.withMdc(staticMdc, Objects.requireNonNull(perMessage, "perMessage"), behavior);
  }

  /**
   * A behaviour that tells {@code monitor} each message of {@code monitoredClass} before handing it
   * to {@code behavior}, and is otherwise that behaviour (for tests and diagnostics).
   *
   * @param monitoredClass the class of messages to copy (subclasses included)
   * @param monitor who gets the copies
   * @param behavior the behaviour
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  public static <T> Behavior<T> monitor(Class<T> monitoredClass, ActorRef<T> monitor, Behavior<T> behavior) {
    return Factories.monitor(monitoredClass, monitor, behavior);
  }

  /**
   * A behaviour that logs each message and signal at debug level (the actor's logger, {@code
   * ctx.getLog()}) before handing it to {@code behavior}, and is otherwise that behaviour. With
   * debug off for that logger it costs one check per message.
   *
   * @param behavior the behaviour
   * @param <T> what it accepts
   * @return the deferred behaviour
   */
  public static <T> Behavior<T> logMessages(Behavior<T> behavior) {
    return Factories.logMessages(behavior);
  }
}
