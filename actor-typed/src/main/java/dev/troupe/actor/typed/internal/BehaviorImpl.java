package dev.troupe.actor.typed.internal;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.DeferredBehavior;
import dev.troupe.actor.typed.ExtensibleBehavior;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.javadsl.ActorContext;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Troupe's own behaviours: the markers {@code same}, {@code unhandled} and {@code stopped} (compared
 * by identity; handing one a message is a bug of the interpreter), {@code empty} and {@code ignore},
 * the deferred ones that need the context to be built, and the functional receives.
 */
public final class BehaviorImpl {
  private BehaviorImpl() {}

  /** A marker: never receives anything. */
  private static final class Marker extends ExtensibleBehavior<Object> {
    private final String name;

    Marker(String name) {
      this.name = name;
    }

    @Override
    public Behavior<Object> receive(ActorContext<Object> ctx, Object msg) {
      if (this == STOPPED) {
        return UNHANDLED; // a message that was already queued when the actor stopped
      }
      throw new IllegalStateException("'" + name + "' is not a behaviour an actor can run");
    }

    @Override
    public Behavior<Object> receiveSignal(ActorContext<Object> ctx, Signal signal) {
      return UNHANDLED;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** {@code Behaviors.same()}. */
  public static final Behavior<Object> SAME = new Marker("Behaviors.same()");

  /** {@code Behaviors.unhandled()}. */
  public static final Behavior<Object> UNHANDLED = new Marker("Behaviors.unhandled()");

  /** {@code Behaviors.stopped()}; also the behaviour of an actor that has stopped. */
  public static final Behavior<Object> STOPPED = new Marker("Behaviors.stopped()");

  /**
   * @param name what it prints as
   * @return a new marker, compared by identity, that an actor never runs
   */
  static Behavior<Object> marker(String name) {
    return new Marker(name);
  }

  /** A behaviour that answers every message and signal with one marker. */
  private static final class Constant extends ExtensibleBehavior<Object> {
    private final String name;
    private final Behavior<Object> answer;

    Constant(String name, Behavior<Object> answer) {
      this.name = name;
      this.answer = answer;
    }

    @Override
    public Behavior<Object> receive(ActorContext<Object> ctx, Object msg) {
      return answer;
    }

    @Override
    public Behavior<Object> receiveSignal(ActorContext<Object> ctx, Signal signal) {
      return answer;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** {@code Behaviors.empty()}: every message unhandled. */
  public static final Behavior<Object> EMPTY = new Constant("Behaviors.empty()", UNHANDLED);

  /** {@code Behaviors.ignore()}: every message and signal dropped silently. */
  public static final Behavior<Object> IGNORE = new Constant("Behaviors.ignore()", SAME);

  /** @return the marker, typed */
  @SuppressWarnings("unchecked")
  public static <T> Behavior<T> cast(Behavior<Object> marker) {
    return (Behavior<T>) (Behavior<?>) marker;
  }

  /**
   * A behaviour built when an actor starts with it (and again on every restart).
   *
   * @param <T> what it accepts
   */
  public abstract static class Deferred<T> extends DeferredBehavior<T> {
    /** For subclasses. */
    protected Deferred() {}

    /**
     * What tells, for telemetry, which class this behaviour was written in (see {@link
     * BehaviorNames}): the user's function (a lambda is named after the class that wrote it), or
     * the behaviour this one wraps.
     *
     * @return a function or a behaviour, or null when nothing tells
     */
    public Object describedBy() {
      return null;
    }
  }

  /**
   * A behaviour of another package of this module that is built when an actor starts with it, as
   * a {@link Deferred} is (the routers: their public classes cannot extend an unexported one).
   *
   * @param <T> what it accepts
   */
  public interface Starting<T> {
    /**
     * Builds the behaviour.
     *
     * @param ctx the starting actor's context
     * @return the behaviour (possibly deferred again)
     */
    Behavior<T> start(ActorContext<T> ctx);
  }

  /** {@code Behaviors.setup(factory)}. */
  public static final class Setup<T> extends Deferred<T> {
    private final Function<ActorContext<T>, Behavior<T>> factory;

    /** @param factory builds the behaviour from the context */
    public Setup(Function<ActorContext<T>, Behavior<T>> factory) {
      this.factory = Objects.requireNonNull(factory, "factory");
    }

    @Override
    public Behavior<T> apply(ActorContext<T> ctx) {
      return factory.apply(ctx);
    }

    @Override
    public Object describedBy() {
      return factory;
    }

    @Override
    public String toString() {
      return "Behaviors.setup(" + factory + ")";
    }
  }

  /** {@code Behaviors.receive(BiFunction)} and {@code receiveMessage}: one function, no signals. */
  public static final class ReceiveFunction<T> extends ExtensibleBehavior<T> {
    private final BiFunction<ActorContext<T>, T, Behavior<T>> onMessage;
    private final BiFunction<ActorContext<T>, Signal, Behavior<T>> onSignal;

    /**
     * @param onMessage the message handler
     * @param onSignal the signal handler, or null (signals unhandled)
     */
    public ReceiveFunction(
        BiFunction<ActorContext<T>, T, Behavior<T>> onMessage,
        BiFunction<ActorContext<T>, Signal, Behavior<T>> onSignal) {
      this.onMessage = Objects.requireNonNull(onMessage, "onMessage");
      this.onSignal = onSignal;
    }

    @Override
    public Behavior<T> receive(ActorContext<T> ctx, T msg) {
      return onMessage.apply(ctx, msg);
    }

    /** @return the message handler, which names the behaviour for telemetry */
    Object describedBy() {
      return onMessage;
    }

    @Override
    public Behavior<T> receiveSignal(ActorContext<T> ctx, Signal signal) {
      return onSignal == null ? cast(UNHANDLED) : onSignal.apply(ctx, signal);
    }
  }
}
