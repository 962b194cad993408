package dev.troupe.actor.internal;

import dev.troupe.actor.Cancellable;
import dev.troupe.actor.TimerScheduler;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * One actor's timers ({@link dev.troupe.actor.AbstractActorWithTimers}): a map from key to the
 * active {@link Timer}, allocated on the first {@code getTimers()} and kept in the cell's {@link
 * LazyCellState} across restarts. Actor thread only, apart from the scheduled sends, which only tell
 * the timer's immutable {@link ActorCell.ScheduledTick} to the actor.
 *
 * <p>Staleness is an identity check: every start creates a new {@link Timer}, and a replaced or
 * cancelled one is marked inactive at once, so a tick of it that is already in the mailbox is
 * dropped when it is dequeued. No other actor pays for this: the tick shares its type (and the one
 * {@code instanceof} in the invoke loop) with the receive-timeout nudge.
 */
final class CellTimers implements TimerScheduler {
  private enum Kind {
    SINGLE,
    FIXED_DELAY,
    FIXED_RATE
  }

  /** One started timer; its tick is allocated once and sent as often as the timer fires. */
  static final class Timer {
    final Object key;
    final Object message;
    final ActorCell.ScheduledTick tick;
    private final Kind kind;
    private final Duration delay; // fixed delay: the pause after each handling
    private final Runnable send;
    private boolean active = true; // false once cancelled, replaced, or a single timer's message was taken
    private Cancellable task = Cancellable.cancelled();

    Timer(LocalActorRef self, Object key, Object message, Kind kind, Duration delay) {
      this.key = key;
      this.message = message;
      this.kind = kind;
      this.delay = delay;
      this.tick = new ActorCell.ScheduledTick(this, 0);
      ActorCell.ScheduledTick t = tick;
      this.send = () -> self.tell(t, self); // the actor is the sender of its own timer messages
    }

    private void deactivate() {
      active = false;
      task.cancel();
    }
  }

  private final ActorCell cell;
  private final Map<Object, Timer> timers = new HashMap<>();

  CellTimers(ActorCell cell) {
    this.cell = cell;
  }

  // =============================================================== the cell's side

  /** The cell's timers, created on first use. */
  static CellTimers of(ActorCell cell) {
    LazyCellState x = cell.lazyState();
    CellTimers t = x.timers;
    if (t == null) {
      t = new CellTimers(cell);
      x.timers = t;
    }
    return t;
  }

  /** Cancels every timer of the cell, if it ever had any (restart and stop). */
  static void cancelAllOf(ActorCell cell) {
    LazyCellState x = cell.lazyState;
    if (x != null && x.timers != null) {
      x.timers.cancelAll();
    }
  }

  /**
   * A timer's tick was dequeued: whether its message is to be delivered. A single timer stops
   * being active here, before the handler runs.
   */
  static boolean take(ActorCell cell, Timer t) {
    if (!t.active) {
      return false; // cancelled or replaced after this tick was sent
    }
    if (t.kind == Kind.SINGLE) {
      t.active = false;
      cell.lazyState.timers.timers.remove(t.key, t); // an active timer means the cell has its CellTimers
    }
    return true;
  }

  /** After the handler of a timer's message (also when it threw): a fixed-delay timer re-arms. */
  static void handled(ActorCell cell, Timer t) {
    if (t.kind == Kind.FIXED_DELAY && t.active && cell.state == ActorCell.ALIVE) {
      try {
        t.task = schedule(cell, t.delay, t.send);
      } catch (IllegalStateException systemTerminated) {
        t.active = false; // the scheduler is closed: this actor is about to be stopped anyway
      }
    }
  }

  // =============================================================== TimerScheduler

  @Override
  public void startSingleTimer(Object key, Object msg, Duration delay) {
    Objects.requireNonNull(delay, "delay");
    start(key, msg, Kind.SINGLE, delay, delay);
  }

  @Override
  public void startTimerWithFixedDelay(Object key, Object msg, Duration initialDelay, Duration delay) {
    Objects.requireNonNull(initialDelay, "initialDelay");
    start(key, msg, Kind.FIXED_DELAY, initialDelay, positive(delay, "delay"));
  }

  @Override
  public void startTimerAtFixedRate(Object key, Object msg, Duration initialDelay, Duration interval) {
    Objects.requireNonNull(initialDelay, "initialDelay");
    start(key, msg, Kind.FIXED_RATE, initialDelay, positive(interval, "interval"));
  }

  @Override
  public boolean isTimerActive(Object key) {
    Timer t = timers.get(key);
    return t != null && t.active;
  }

  @Override
  public void cancel(Object key) {
    Timer t = timers.remove(key);
    if (t != null) {
      t.deactivate();
    }
  }

  @Override
  public void cancelAll() {
    for (Timer t : timers.values()) {
      t.deactivate();
    }
    timers.clear();
  }

  @Override
  public String toString() {
    return "TimerScheduler[" + cell.self.path() + ", " + timers.size() + " timers]";
  }

  // =============================================================== internals

  private void start(Object key, Object msg, Kind kind, Duration first, Duration period) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(msg, "msg");
    Timer old = timers.remove(key);
    if (old != null) {
      old.deactivate();
    }
    if (cell.state != ActorCell.ALIVE) {
      return; // stopping: a timer started now (e.g. in postStop) could only reach dead letters
    }
    Timer t = new Timer(cell.self, key, msg, kind, period);
    timers.put(key, t);
    if (kind == Kind.FIXED_RATE) {
      t.task = cell.self.system.scheduler().scheduleAtFixedRate(first, period, t.send, executor(cell));
    } else {
      t.task = schedule(cell, first, t.send);
    }
  }

  private static Cancellable schedule(ActorCell cell, Duration delay, Runnable send) {
    return cell.self.system.scheduler().scheduleOnce(delay, send, executor(cell));
  }

  private static Executor executor(ActorCell cell) {
    return cell.mailbox.dispatcher().executor();
  }

  private static Duration positive(Duration d, String what) {
    Objects.requireNonNull(d, what);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive, was " + d);
    }
    return d;
  }
}
