package dev.troupe.actor.typed.internal;

import dev.troupe.actor.ExpectedFailure;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.PostStop;
import dev.troupe.actor.typed.PreRestart;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.SupervisorStrategy;
import dev.troupe.actor.typed.Terminated;
import dev.troupe.actor.typed.javadsl.ActorContext;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code Behaviors.supervise(b).onFailure(type, strategy)}, running: the supervised behaviour runs
 * inside this one, and an exception of {@code type} it throws (while handling a message or a signal,
 * or while being set up) is handled here, in the actor, instead of failing the cell.
 *
 * <p>Why inside the actor and not with the cell's classic supervision: a restart then re-runs the
 * initial behaviour's setup in the same cell (same ref, same mailbox, no message lost to a
 * recreate), resume keeps the behaviour object and its state, different exception types may have
 * different strategies on nested layers, and an exception of another class simply passes through
 * to the next layer (finally failing the cell, which the parent stops). A restart signals {@link
 * PreRestart} to the old behaviour, cancels the timers and stops the children, then waits for them
 * to be gone (their names become free) before it sets up again; messages arriving meanwhile, or
 * during a backoff, are kept and handled after the restart, in order.
 *
 * @param <T> what the supervised behaviour accepts
 */
final class Supervisor<T> extends Wrapper<T> {
  private final Behavior<T> initial;
  private final Class<? extends Throwable> type;
  private final SupervisorStrategy strategy;
  private int restartsInWindow;
  private long windowStart;
  private int backoffRestarts;
  private long lastRestartNanos;
  private Set<ActorRef<?>> awaitedChildren;
  private boolean backoffPending;
  private ArrayDeque<T> kept;
  /** Set when this instance was replaced (an outer restart) or the actor stopped. */
  private boolean retired;

  private Supervisor(Behavior<T> initial, Class<? extends Throwable> type, SupervisorStrategy strategy) {
    this.initial = initial;
    this.type = type;
    this.strategy = strategy;
  }

  /** The deferred value {@code Behaviors.supervise(...).onFailure(...)} returns. */
  static final class Supervise<T> extends BehaviorImpl.Deferred<T> {
    private final Behavior<T> initial;
    private final Class<? extends Throwable> type;
    private final SupervisorStrategy strategy;

    Supervise(Behavior<T> initial, Class<? extends Throwable> type, SupervisorStrategy strategy) {
      this.initial = Objects.requireNonNull(initial, "behavior");
      this.type = Objects.requireNonNull(type, "type");
      this.strategy = Objects.requireNonNull(strategy, "strategy");
    }

    @Override
    public Behavior<T> apply(ActorContext<T> ctx) {
      return new Supervisor<>(initial, type, strategy).start(ctx);
    }

    @Override
    public Object describedBy() {
      return initial;
    }

    @Override
    public String toString() {
      return "Behaviors.supervise(" + initial + ").onFailure(" + type.getSimpleName() + ", " + strategy + ")";
    }
  }

  /**
   * @param initial the behaviour to supervise
   * @param type the exceptions handled
   * @param strategy what to do
   * @param <T> what it accepts
   * @return the deferred supervising behaviour
   */
  static <T> Behavior<T> supervise(Behavior<T> initial, Class<? extends Throwable> type, SupervisorStrategy strategy) {
    return new Supervise<>(initial, type, strategy);
  }

  private Behavior<T> start(ActorContext<T> ctx) {
    for (;;) {
      try {
        Behavior<T> b = Interpreter.start(initial, ctx);
        if (b == BehaviorImpl.STOPPED) {
          return b;
        }
        current = b;
        return this;
      } catch (RuntimeException | Error t) {
        if (!type.isInstance(t)) {
          throw t;
        }
        if (strategy instanceof SupervisorStrategy.Restart r && r.maxRetries() >= 0 && allowRestart(r)) {
          logFailure(ctx, t, "supervised behaviour failed during setup", "restarting (" + strategy + ")");
          continue;
        }
        if (strategy instanceof SupervisorStrategy.Backoff b) {
          current = null;
          beginBackoff(ctx, b, t);
          return this;
        }
        throw t; // resume, stop and an unlimited restart cannot recover a failed setup
      }
    }
  }

  @Override
  public Behavior<T> receive(ActorContext<T> ctx, T msg) {
    if (current == null) {
      keep(ctx, msg);
      return BehaviorImpl.cast(BehaviorImpl.SAME);
    }
    try {
      return after(Interpreter.interpretMessage(current, ctx, msg), ctx);
    } catch (RuntimeException | Error t) {
      return onFailure(ctx, t);
    }
  }

  @Override
  public Behavior<T> receiveSignal(ActorContext<T> ctx, Signal signal) {
    if (signal == PreRestart.instance() || signal == PostStop.instance()) {
      retired = true;
      return current == null ? BehaviorImpl.cast(BehaviorImpl.SAME) : Interpreter.interpretSignal(current, ctx, signal);
    }
    if (current == null) {
      if (signal instanceof Terminated t && awaitedChildren != null && awaitedChildren.remove(t.getRef())) {
        return awaitedChildren.isEmpty() && !backoffPending ? restartNow(ctx) : BehaviorImpl.cast(BehaviorImpl.SAME);
      }
      return BehaviorImpl.cast(BehaviorImpl.SAME); // the behaviour that watched is being replaced
    }
    try {
      return after(Interpreter.interpretSignal(current, ctx, signal), ctx);
    } catch (RuntimeException | Error t) {
      return onFailure(ctx, t);
    }
  }

  private Behavior<T> onFailure(ActorContext<T> ctx, Throwable t) {
    if (!type.isInstance(t)) {
      throw sneaky(t);
    }
    if (strategy instanceof SupervisorStrategy.Resume) {
      logFailure(ctx, t, "supervised behaviour failed", "resuming");
      return BehaviorImpl.cast(BehaviorImpl.SAME);
    }
    if (strategy instanceof SupervisorStrategy.Restart r) {
      if (!allowRestart(r)) {
        throw sneaky(t);
      }
      logFailure(ctx, t, "supervised behaviour failed", "restarting (" + strategy + ")");
      prepareRestart(ctx);
      return awaitedChildren.isEmpty() ? restartNow(ctx) : BehaviorImpl.cast(BehaviorImpl.SAME);
    }
    if (strategy instanceof SupervisorStrategy.Backoff b) {
      long now = System.nanoTime();
      if (backoffRestarts > 0 && now - lastRestartNanos >= b.resetBackoffAfter().toNanos()) {
        backoffRestarts = 0;
      }
      if (b.maxRestarts() >= 0 && backoffRestarts >= b.maxRestarts()) {
        throw sneaky(t);
      }
      prepareRestart(ctx);
      beginBackoff(ctx, b, t);
      return BehaviorImpl.cast(BehaviorImpl.SAME);
    }
    throw sneaky(t); // stop: the actor fails and its parent stops it
  }

  /**
   * Logs a handled failure: an error with its stack trace, or, for an {@link ExpectedFailure} (a
   * failure that is part of the application's story), one warning line without it, as classic
   * supervision does.
   */
  private static void logFailure(ActorContext<?> ctx, Throwable t, String what, String decision) {
    if (t instanceof ExpectedFailure) {
      ctx.getLog().warn("{}: {}; {}", what, t, decision);
    } else {
      ctx.getLog().error("{}; {}", what, decision, t);
    }
  }

  private boolean allowRestart(SupervisorStrategy.Restart r) {
    if (r.maxRetries() < 0) {
      return true;
    }
    long now = System.nanoTime();
    if (restartsInWindow == 0 || (!r.within().isZero() && now - windowStart > r.within().toNanos())) {
      windowStart = now;
      restartsInWindow = 0;
    }
    restartsInWindow++;
    return restartsInWindow <= r.maxRetries();
  }

  /** The old behaviour gets PreRestart, the timers go, the children are stopped and awaited. */
  private void prepareRestart(ActorContext<T> ctx) {
    Behavior<T> old = current;
    current = null;
    if (old != null) {
      try {
        Interpreter.interpretSignal(old, ctx, PreRestart.instance());
      } catch (RuntimeException | Error e) {
        ctx.getLog().error("exception while handling PreRestart", e);
      }
    }
    InternalContext.of(ctx).cancelAllTimers();
    awaitedChildren = new HashSet<>();
    for (ActorRef<Void> child : ctx.getChildren()) {
      awaitedChildren.add(child);
      ctx.watch(child);
      ctx.stop(child);
    }
  }

  private void beginBackoff(ActorContext<T> ctx, SupervisorStrategy.Backoff b, Throwable t) {
    if (awaitedChildren == null) {
      awaitedChildren = new HashSet<>();
    }
    Duration base = b.delayOf(backoffRestarts);
    double factor = 1.0 + ThreadLocalRandom.current().nextDouble() * b.randomFactor();
    Duration delay = Duration.ofNanos((long) Math.min(Long.MAX_VALUE / 2.0, base.toNanos() * factor));
    backoffRestarts++;
    backoffPending = true;
    logFailure(ctx, t, "supervised behaviour failed", "restarting in " + delay + " (" + strategy + ")");
    InternalContext.of(ctx).scheduleToSelf(delay, new BackoffElapsed(this));
  }

  /** The backoff's delay is over. */
  private static final class BackoffElapsed extends InternalMessage {
    private final Supervisor<?> supervisor;

    BackoffElapsed(Supervisor<?> supervisor) {
      this.supervisor = supervisor;
    }

    @Override
    public void deliver(TypedActor<?> actor) {
      deliverTo(supervisor, actor);
    }

    private static <T> void deliverTo(Supervisor<T> s, TypedActor<?> actor) {
      @SuppressWarnings("unchecked")
      TypedActor<T> a = (TypedActor<T>) actor;
      a.next(s.backoffElapsed(a.typedContext()), null);
    }

    @Override
    public String toString() {
      return "BackoffElapsed";
    }
  }

  private Behavior<T> backoffElapsed(ActorContext<T> ctx) {
    if (retired || !backoffPending) {
      return BehaviorImpl.cast(BehaviorImpl.SAME);
    }
    backoffPending = false;
    return awaitedChildren.isEmpty() ? restartNow(ctx) : BehaviorImpl.cast(BehaviorImpl.SAME);
  }

  /** Sets the initial behaviour up again and hands it the messages kept meanwhile. */
  private Behavior<T> restartNow(ActorContext<T> ctx) {
    awaitedChildren = null;
    lastRestartNanos = System.nanoTime();
    try {
      Behavior<T> b = Interpreter.start(initial, ctx);
      if (b == BehaviorImpl.STOPPED) {
        return b;
      }
      current = b;
    } catch (RuntimeException | Error t) {
      if (strategy instanceof SupervisorStrategy.Restart r && r.maxRetries() < 0) {
        throw t; // an unlimited restart of a setup that keeps failing would never end
      }
      return onFailure(ctx, t);
    }
    while (kept != null && !kept.isEmpty() && current != null) {
      T m = kept.pollFirst();
      Behavior<T> r = receive(ctx, m);
      if (r == BehaviorImpl.STOPPED) {
        return r;
      }
      if (r == BehaviorImpl.UNHANDLED) {
        InternalContext.of(ctx).unhandled(m);
      }
    }
    return BehaviorImpl.cast(BehaviorImpl.SAME);
  }

  private void keep(ActorContext<T> ctx, T msg) {
    int capacity =
        strategy instanceof SupervisorStrategy.Backoff b
            ? b.stashCapacity()
            : ((SupervisorStrategy.Restart) strategy).stashCapacity();
    if (kept == null) {
      kept = new ArrayDeque<>();
    }
    if (kept.size() < capacity) {
      kept.addLast(msg);
    } else {
      InternalContext.of(ctx).deadLetter(msg);
    }
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
    throw (E) t;
  }

  @Override
  public String toString() {
    return "supervising(" + current + ", " + type.getSimpleName() + ", " + strategy + ")";
  }
}
