package dev.troupe.actor.typed.internal;

import dev.troupe.actor.DeathPactException;
import dev.troupe.actor.OneForOneStrategy;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.UntypedActorWithTimers;
import dev.troupe.actor.spi.DescribedCreator;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.ChildFailed;
import dev.troupe.actor.typed.PostStop;
import dev.troupe.actor.typed.PreRestart;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.Terminated;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;
import dev.troupe.actor.typed.javadsl.Receive;
import java.util.Optional;

/**
 * The classic actor that runs a typed behaviour: a typed actor is an ordinary cell (its
 * dispatcher, mailbox, death watch and remoting are the classic ones) whose one receive case hands
 * each message to the current behaviour and keeps what it returns.
 *
 * <p>Per message this adds to the classic path a class test of the behaviour, the call into it and
 * one identity comparison of what it returned; nothing is allocated. For an {@code
 * AbstractBehavior} or a built {@code Receive} whose first case matches one enum constant or one
 * final class (see {@link FirstCase}), a message that matches it costs one compare before its handler runs: the actor's own
 * messages (internal ones, classic {@code Terminated}, the receive timeout), which such a case never
 * matches, are tested only after it missed, and the cases after it without testing it again. Any
 * other message, and any other behaviour, is first tested against those three (two class tests and
 * an identity comparison; {@link InternalMessage} is a class, not an interface, so that its test
 * stays one compare). A built {@code Receive} ({@code Behaviors.receive(...).build()}, a final
 * class: one compare) is called directly too, so that beyond the cell's call of {@code onReceive},
 * which a classic message makes too, a message makes one call that depends on the actor: into the
 * matching case's handler. Other behaviours go through {@link Interpreter#interpretMessage}. A
 * handler that returns the behaviour it ran (an {@code AbstractBehavior}'s {@code this}) costs one
 * compare of what it returned; only another result goes through {@link #next}.
 *
 * <p>Footprint. An idle typed actor costs two small objects more than an idle classic one: this
 * actor (two fields over the classic base) and its {@link ContextImpl} (three). It is an untyped
 * classic actor, so its cell holds no {@code Receive}; what is rare (timers, adapters, watches, a
 * logger, a parent's record of failed children) lives in the context's extras, made on first use;
 * and children spawned with the same behaviour and props share one classic {@code Props}. The
 * {@code ActorCreation} benchmark ({@code impl=troupe-typed}) measures the difference.
 *
 * <p>Failures. Typed supervision ({@code Behaviors.supervise}) runs inside the behaviour, so an
 * exception that reaches this class was not handled there: it fails the cell. A typed parent's
 * supervisor strategy then always stops the child (a typed actor stops on an unhandled failure) and,
 * as the child reported the cause to its parent's context before failing, a watching parent gets
 * {@link ChildFailed} with it. A typed actor under a classic parent ({@code Adapter.spawn} from a
 * classic actor) is handled by that parent's strategy, as any classic child. The guardian of a typed
 * system stops on a failure, which terminates the system.
 *
 * @param <T> the type of message the behaviour accepts
 */
public final class TypedActor<T> extends UntypedActorWithTimers {
  /** A constant to the JIT, so that both of its calls inline. */
  private static final FirstCase FIRST = FirstCase.Holder.ACCESS;

  private final ContextImpl<T> ctx;
  /**
   * The initial behaviour until {@link #preStart}, null while it is being set up, then the running
   * behaviour; {@code STOPPED} once it stopped (the behaviour that stopped is in the extras).
   */
  private Behavior<T> behavior;

  /**
   * @param initial the behaviour to start
   * @param link the typed parent's context, {@link ContextImpl#GUARDIAN} for a typed system's
   *     guardian, {@link ContextImpl#SYSTEM_ACTOR} for a system actor, or null under a classic
   *     parent
   */
  TypedActor(Behavior<T> initial, Object link) {
    this.behavior = initial;
    this.ctx = new ContextImpl<>(this, link);
  }

  /**
   * Classic props for an actor that runs a behaviour.
   *
   * @param behavior the behaviour
   * @param parent the context of the typed parent, or null under a classic parent
   * @param guardian whether this is a typed system's guardian
   * @param props dispatcher and mailbox
   * @param <T> what it accepts
   * @return the classic props
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static <T> dev.troupe.actor.Props props(
      Behavior<T> behavior, ContextImpl<?> parent, boolean guardian, Props props) {
    java.util.Objects.requireNonNull(behavior, "behavior");
    Object link = guardian ? ContextImpl.GUARDIAN : parent;
    dev.troupe.actor.Props classic =
        dev.troupe.actor.Props.create((Class) TypedActor.class, new Start<>(behavior, link));
    return props.applyTo(classic);
  }

  /**
   * Classic props for a typed system's {@code systemActorOf}: an actor under {@code /system} that,
   * like a typed child, stops on an exception its behaviour did not handle (the {@code /system}
   * guardian's default strategy would restart it).
   *
   * @param behavior the behaviour
   * @param props dispatcher and mailbox
   * @param <T> what it accepts
   * @return the classic props
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static <T> dev.troupe.actor.Props systemProps(Behavior<T> behavior, Props props) {
    java.util.Objects.requireNonNull(behavior, "behavior");
    dev.troupe.actor.Props classic =
        dev.troupe.actor.Props.create((Class) TypedActor.class, new Start<>(behavior, ContextImpl.SYSTEM_ACTOR));
    return props.applyTo(classic);
  }

  /**
   * The creator of the classic props: a new actor for the behaviour, named in telemetry after the
   * class the behaviour was written in ({@link BehaviorNames}), not after this class.
   */
  private static final class Start<T> implements DescribedCreator<TypedActor<T>> {
    private final Behavior<T> behavior;
    private final Object link;

    Start(Behavior<T> behavior, Object link) {
      this.behavior = behavior;
      this.link = link;
    }

    @Override
    public TypedActor<T> create() {
      return new TypedActor<>(behavior, link);
    }

    @Override
    public String describedClassName() {
      return BehaviorNames.of(behavior);
    }
  }

  /** @return the class an actor's logger is named after: its AbstractBehavior's, or Behavior */
  Class<?> loggerClass() {
    Behavior<T> b = behavior == BehaviorImpl.STOPPED ? ctx.beforeStop() : behavior;
    return b instanceof AbstractBehavior<?> ? b.getClass() : Behavior.class;
  }

  /** @return the actor's typed context */
  ContextImpl<T> typedContext() {
    return ctx;
  }

  @Override
  public SupervisorStrategy supervisorStrategy() {
    // Any failure of a child stops it; the cause waits in ctx for the child's Terminated.
    return new OneForOneStrategy(
        cause -> {
          ctx.forgetUnwatchedFailures();
          return SupervisorStrategy.stop();
        });
  }

  @Override
  public void preStart() throws Exception {
    Behavior<T> initial = behavior;
    behavior = null; // nothing to signal if the setup fails
    try {
      Behavior<T> b = Interpreter.start(initial, ctx);
      if (b == BehaviorImpl.STOPPED) {
        stopSelf(null);
      } else {
        behavior = b;
      }
    } catch (Throwable t) {
      failed(t);
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public void onReceive(Object m) throws Exception {
    try {
      // The behaviour's first case before the actor's own messages, which it never matches (see
      // FirstCase); the call into the behaviour written out, not through handle: handle is called
      // from several places and gets compiled on its own, and the JIT does not inline a method
      // whose compiled code is large.
      Behavior<T> b = behavior;
      Behavior<T> r =
          b instanceof AbstractBehavior<T> ab ? FIRST.apply(ab, m)
              : b instanceof Receive<T> cases ? FIRST.apply(cases, m)
              : FirstCase.miss();
      if (r == FirstCase.MISS) {
        if (FirstCase.isActorsOwn(m)) {
          receiveOwn(m);
          return;
        }
        T msg = (T) m;
        r = b instanceof AbstractBehavior<T> ab ? FIRST.applyAfterMiss(ab, ctx, msg)
            : b instanceof Receive<T> cases ? FIRST.applyAfterMiss(cases, ctx, msg)
            : Interpreter.interpretMessage(b, ctx, msg);
      }
      if (r != b) {
        next(r, m);
      }
    } catch (Throwable t) {
      failed(t);
    }
  }

  /** What the runtime sends the actor itself, kept off the path of the behaviour's messages. */
  private void receiveOwn(Object m) {
    if (m instanceof InternalMessage im) {
      im.deliver(this);
    } else if (m instanceof dev.troupe.actor.Terminated t) {
      onTerminated(t);
    } else {
      T timeout = ctx.receiveTimeoutMessage();
      if (timeout != null) {
        handle(timeout);
      }
    }
  }

  /**
   * Hands a message of the actor's type to the behaviour (adapted and piped messages come here).
   *
   * <p>An {@code AbstractBehavior} and a built {@code Receive} are called here directly (the
   * first's {@code receive} is final and the second is a final class, so the call inlines, and with
   * it the first case's test), not through {@link
   * Interpreter#interpretMessage}: that method is called from several places (wrappers, stash,
   * testkit), gets compiled on its own, and the JIT then calls its large compiled code instead of
   * inlining it.
   *
   * @param msg the message
   */
  void handle(T msg) {
    Behavior<T> b = behavior;
    Behavior<T> r =
        b instanceof AbstractBehavior<T> ab ? ab.receive(ctx, msg)
            : b instanceof Receive<T> cases ? cases.receive(ctx, msg)
            : Interpreter.interpretMessage(b, ctx, msg);
    if (r != b) {
      next(r, msg);
    }
  }

  /**
   * Keeps what the behaviour returned.
   *
   * @param b what it returned
   * @param msg the message it handled, or null for a signal
   */
  void next(Behavior<T> b, Object msg) {
    Behavior<T> current = behavior;
    if (b == BehaviorImpl.SAME || b == current) {
      return;
    }
    if (b == BehaviorImpl.UNHANDLED) {
      if (msg != null) {
        ctx.unhandled(msg);
      }
      return;
    }
    if (b == BehaviorImpl.STOPPED) {
      stopSelf(current);
      return;
    }
    Behavior<T> started = Interpreter.start(b, ctx);
    if (started == BehaviorImpl.STOPPED) {
      stopSelf(current);
    } else {
      behavior = started;
    }
  }

  private void stopSelf(Behavior<T> last) {
    if (behavior != BehaviorImpl.STOPPED) {
      ctx.beforeStop(last);
      behavior = BehaviorImpl.cast(BehaviorImpl.STOPPED);
      getContext().stop(getSelf());
    }
  }

  private void onTerminated(dev.troupe.actor.Terminated t) {
    dev.troupe.actor.typed.ActorRef<Void> ref = new ActorRefAdapter<>(t.actor());
    Throwable cause = ctx.terminated(t.actor());
    Signal s = cause == null ? new Terminated(ref) : new ChildFailed(ref, cause);
    Behavior<T> b = Interpreter.interpretSignal(behavior, ctx, s);
    if (b == BehaviorImpl.UNHANDLED) {
      throw new DeathPactException(t.actor());
    }
    next(b, null);
  }

  /** An exception the behaviour did not handle. */
  private void failed(Throwable t) throws Exception {
    if (ctx.isGuardian()) {
      ctx.getLog().error("the guardian of system [{}] failed and stops; the system terminates", getContext().getSystem().name(), t);
      stopSelf(behavior);
      return;
    }
    if (ctx.isSystemActor()) {
      ctx.getLog().error("system actor [{}] failed and stops", getSelf().path(), t);
      stopSelf(behavior);
      return;
    }
    ContextImpl<?> parent = ctx.typedParent();
    if (parent != null) {
      parent.childFailed(getSelf(), t);
    }
    if (t instanceof Exception e) {
      throw e;
    }
    throw (Error) t;
  }

  @Override
  public void preRestart(Throwable reason, Optional<Object> message) {
    // A classic parent restarts this actor: the behaviour gets PreRestart (not PostStop), the
    // children stop, and the new instance starts the initial behaviour again.
    signalQuietly(behavior, PreRestart.instance());
    for (dev.troupe.actor.ActorRef child : getContext().getChildren()) {
      getContext().stop(child);
    }
  }

  @Override
  public void postStop() {
    ctx.stopped();
    Behavior<T> target = behavior == BehaviorImpl.STOPPED ? ctx.beforeStop() : behavior;
    signalQuietly(target, PostStop.instance());
    if (ctx.isGuardian()) {
      getContext().getSystem().terminate();
    }
  }

  private void signalQuietly(Behavior<T> target, Signal signal) {
    if (target == null || target == BehaviorImpl.STOPPED) {
      return;
    }
    try {
      Interpreter.interpretSignal(target, ctx, signal);
    } catch (RuntimeException | Error e) {
      ctx.getLog().error("exception while handling {}", signal, e);
    }
  }
}
