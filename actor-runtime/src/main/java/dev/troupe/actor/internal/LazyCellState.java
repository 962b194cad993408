package dev.troupe.actor.internal;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.Cancellable;
import dev.troupe.actor.LoggingAdapter;
import dev.troupe.actor.StashOverflowException;
import dev.troupe.actor.internal.dispatch.Envelope;
import dev.troupe.actor.spi.ReceiveInterception;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The receive side most actors never use — {@code become}/{@code unbecome}, the stash, the
 * receive timeout, timers ({@link CellTimers}) — the actor's logger, and the bookkeeping of a
 * failure the parent has not decided on yet.
 *
 * <p>An instance is allocated on a cell's first use of any of them: a million idle actors should
 * not carry a million empty stashes and timeout fields. The static methods are the cell's side.
 * Actor thread only.
 */
final class LazyCellState {
  ArrayDeque<AbstractActor.Receive> behaviorStack; // created by the first become()
  AbstractActor.Receive initialBehavior; // what unbecome() returns to; saved by the first become()
  ReceiveInterception interception; // the actor's, if it is one (set per incarnation): wraps each behaviour
  Envelope failedEnvelope; // a copy: preRestart sees the message and its sender
  Throwable pendingRecreate; // a restart that waits for children stopped in preRestart
  ArrayDeque<Envelope> stash;
  boolean currentStashed; // the message being processed was stashed (once is the limit)
  boolean failed; // reported a failure to the parent and waits for its decision
  long receiveTimeoutNanos;
  long lastActivityNanos;
  int receiveTimeoutGeneration;
  Cancellable receiveTimeoutTask;
  CellTimers timers; // created by the first getTimers() of a timer actor
  LoggingAdapter log; // created by the first getLog(); kept across restarts (same class, same path)

  // =============================================================== logging

  static LoggingAdapter log(ActorCell cell) {
    LazyCellState x = cell.lazyState();
    LoggingAdapter l = x.log;
    if (l == null) {
      l = new ActorLoggingAdapter(cell);
      x.log = l;
    }
    return l;
  }

  // =============================================================== become

  static void become(ActorCell cell, AbstractActor.Receive b, boolean discardOld) {
    if (b == null) {
      throw new NullPointerException("behaviour");
    }
    LazyCellState x = cell.lazyState();
    if (x.behaviorStack == null) {
      x.behaviorStack = new ArrayDeque<>(4);
      x.initialBehavior = cell.behavior; // no become yet in this incarnation: this is the initial one
    }
    if (discardOld && !x.behaviorStack.isEmpty()) {
      x.behaviorStack.pop();
    }
    x.behaviorStack.push(b);
    ReceiveInterception i = x.interception;
    cell.behavior = i == null ? b : nonNull(i.intercept(b));
  }

  static void unbecome(ActorCell cell) {
    LazyCellState x = cell.lazyState;
    ArrayDeque<AbstractActor.Receive> stack = x == null ? null : x.behaviorStack;
    if (stack == null) {
      return; // never became anything: already the initial behaviour
    }
    if (!stack.isEmpty()) {
      stack.pop();
    }
    AbstractActor.Receive top = stack.peek();
    ReceiveInterception i = x.interception;
    // initialBehavior is what the cell ran (already intercepted); the stack holds what become got
    cell.behavior = top == null ? x.initialBehavior : i == null ? top : nonNull(i.intercept(top));
  }

  /**
   * A new incarnation of an actor that intercepts its behaviours: remembered for {@code become},
   * and its initial behaviour intercepted.
   *
   * @return what the cell runs first
   */
  static AbstractActor.Receive intercepted(ActorCell cell, ReceiveInterception i, AbstractActor.Receive initial) {
    cell.lazyState().interception = i;
    return nonNull(i.intercept(initial));
  }

  private static AbstractActor.Receive nonNull(AbstractActor.Receive r) {
    if (r == null) {
      throw new IllegalStateException("ReceiveInterception.intercept returned null");
    }
    return r;
  }

  /** A new incarnation starts from its own {@code createReceive}. */
  static void forgetBehaviors(ActorCell cell) {
    LazyCellState x = cell.lazyState;
    if (x != null) {
      x.behaviorStack = null;
      x.initialBehavior = null;
      x.interception = null;
    }
  }

  // =============================================================== stash

  static void stash(ActorCell cell) {
    Envelope e = cell.current;
    if (e == null) {
      throw new IllegalStateException("stash() called outside message processing");
    }
    LazyCellState x = cell.lazyState();
    if (x.currentStashed) {
      throw new IllegalStateException("the current message was already stashed");
    }
    ArrayDeque<Envelope> s = x.stash;
    if (s == null) {
      s = new ArrayDeque<>();
      x.stash = s;
    }
    int capacity = cell.self.system.settings.stashCapacity();
    if (capacity >= 0 && s.size() >= capacity) {
      throw new StashOverflowException(
          "stash of " + cell.self.path() + " is full (capacity " + capacity + ")");
    }
    s.addLast(e.copy()); // a traced message keeps its trace context while stashed
    x.currentStashed = true;
  }

  static void unstash(ActorCell cell) {
    ArrayDeque<Envelope> s = cell.lazyState == null ? null : cell.lazyState.stash;
    if (s != null && !s.isEmpty()) {
      cell.mailbox.prependAll(List.of(s.pollFirst()));
    }
  }

  static int stashSize(ActorCell cell) {
    ArrayDeque<Envelope> s = cell.lazyState == null ? null : cell.lazyState.stash;
    return s == null ? 0 : s.size();
  }

  /** @return the oldest stashed envelope, removed, or null */
  static Envelope pollStashed(ActorCell cell) {
    ArrayDeque<Envelope> s = cell.lazyState == null ? null : cell.lazyState.stash;
    return s == null ? null : s.pollFirst();
  }

  /**
   * For a message delivered from the stash inside another's handling: whether the message being
   * handled was stashed is the inner one's while it runs, then the outer one's again.
   *
   * @return the flag as it was
   */
  static boolean swapCurrentStashed(ActorCell cell, boolean value) {
    LazyCellState x = cell.lazyState();
    boolean was = x.currentStashed;
    x.currentStashed = value;
    return was;
  }

  static void unstashAll(ActorCell cell) {
    ArrayDeque<Envelope> s = cell.lazyState == null ? null : cell.lazyState.stash;
    if (s != null && !s.isEmpty()) {
      cell.mailbox.prependAll(s);
      s.clear();
    }
  }

  // =============================================================== receive timeout

  static void setReceiveTimeout(ActorCell cell, Duration timeout) {
    long nanos = timeout == null || timeout.isNegative() ? 0L : timeout.toNanos();
    cancelReceiveTimeout(cell);
    if (nanos > 0) {
      LazyCellState x = cell.lazyState();
      x.receiveTimeoutNanos = nanos;
      x.lastActivityNanos = cell.self.system.nanoTime();
      scheduleTimeoutCheck(cell, x, nanos);
    }
  }

  static Duration receiveTimeout(ActorCell cell) {
    return Duration.ofNanos(cell.lazyState == null ? 0L : cell.lazyState.receiveTimeoutNanos);
  }

  static void cancelReceiveTimeout(ActorCell cell) {
    LazyCellState x = cell.lazyState;
    if (x == null) {
      return;
    }
    x.receiveTimeoutGeneration++;
    x.receiveTimeoutNanos = 0;
    if (x.receiveTimeoutTask != null) {
      x.receiveTimeoutTask.cancel();
      x.receiveTimeoutTask = null;
    }
  }

  private static void scheduleTimeoutCheck(ActorCell cell, LazyCellState x, long delayNanos) {
    ActorCell.ScheduledTick tick = new ActorCell.ScheduledTick(null, x.receiveTimeoutGeneration);
    LocalActorRef self = cell.self;
    x.receiveTimeoutTask =
        self.system.scheduler().scheduleOnce(
            Duration.ofNanos(delayNanos), () -> self.tell(tick, null), cell.mailbox.dispatcher().executor());
  }

  /**
   * One timer per actor, not one per message: messages only record their time, and the tick
   * checks how long the actor has really been idle, re-arming itself for the remainder.
   *
   * @return whether the actor has been idle for its whole timeout: deliver {@code ReceiveTimeout}
   */
  static boolean receiveTimeoutDue(ActorCell cell, ActorCell.ScheduledTick tick) {
    LazyCellState x = cell.lazyState;
    if (x == null || tick.generation() != x.receiveTimeoutGeneration || x.receiveTimeoutNanos == 0) {
      return false;
    }
    long idle = cell.self.system.nanoTime() - x.lastActivityNanos;
    if (idle >= x.receiveTimeoutNanos) {
      x.lastActivityNanos = cell.self.system.nanoTime();
      scheduleTimeoutCheck(cell, x, x.receiveTimeoutNanos);
      return true;
    }
    scheduleTimeoutCheck(cell, x, x.receiveTimeoutNanos - idle);
    return false;
  }
}
