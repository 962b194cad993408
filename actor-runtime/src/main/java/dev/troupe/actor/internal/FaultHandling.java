package dev.troupe.actor.internal;

import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.actor.Actor;
import dev.troupe.actor.ActorInitializationException;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Directive;
import dev.troupe.actor.ExpectedFailure;
import dev.troupe.actor.RemoteCause;
import dev.troupe.actor.LoggingAdapter;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.runtime.spi.SystemMessages.DeathWatchNotification;
import dev.troupe.runtime.spi.SystemMessages.Failed;
import dev.troupe.runtime.spi.SystemMessages.Recreate;
import dev.troupe.runtime.spi.SystemMessages.Resume;
import dev.troupe.actor.internal.dispatch.Envelope;
import dev.troupe.actor.spi.ActorConstruction;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.UntypedActor;
import dev.troupe.actor.spi.ReceiveInterception;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An incarnation's life: creation, failure (own and children's), resume, restart and stop.
 *
 * <p>A failure suspends the mailbox and the children and reports {@link Failed} to the parent,
 * whose supervisor strategy answers with Resume, Recreate or Terminate, or fails the parent too
 * (escalate). Termination stops the children first and finishes when the last one is gone. All
 * on the actor's thread; the state lives in the {@link ActorCell} and its {@link LazyCellState}.
 */
final class FaultHandling {
  private FaultHandling() {}

  // =============================================================== creation

  static void create(ActorCell cell) {
    try {
      newInstance(cell);
      cell.actor.preStart();
      if (cell.self.system.settings.debugLifecycle()) {
        cell.self.system.log.debug("started {} ({})", cell.self.path(), cell.actor.getClass().getName());
      }
    } catch (Throwable t) {
      handleInvokeFailure(cell, initFailure(cell, "exception during creation", t), null);
    }
  }

  private static ActorInitializationException initFailure(ActorCell cell, String what, Throwable t) {
    return t instanceof ActorInitializationException a
        ? a
        : new ActorInitializationException(cell.self, what, t);
  }

  private static void newInstance(ActorCell cell) throws Exception {
    Actor a;
    ActorConstruction.begin(cell);
    try {
      a = cell.props.newActor();
    } finally {
      ActorConstruction.end();
    }
    AbstractActor.Receive initial = null; // an UntypedActor needs no Receive objects at all
    if (!(a instanceof UntypedActor)) {
      initial = a.createReceive();
      if (initial == null) {
        throw new IllegalStateException(a.getClass().getName() + ".createReceive() returned null");
      }
    }
    cell.actor = a;
    LazyCellState.forgetBehaviors(cell);
    if (a instanceof ReceiveInterception interception && initial != null) {
      initial = LazyCellState.intercepted(cell, interception, initial);
    }
    cell.behavior = initial;
  }

  // =============================================================== termination

  static void terminate(ActorCell cell) {
    if (cell.state != ActorCell.ALIVE) {
      return;
    }
    cell.state = ActorCell.TERMINATING;
    LazyCellState.cancelReceiveTimeout(cell);
    CellTimers.cancelAllOf(cell);
    cell.mailbox.suspend(); // no user message is processed while children stop
    CellChildren.stopAll(cell);
    if (CellChildren.isEmpty(cell)) {
      finishTerminate(cell);
    }
  }

  /** The children are gone: postStop, close the mailbox, tell the watchers and the parent. */
  static void finishTerminate(ActorCell cell) {
    Actor a = cell.actor;
    LocalActorRef self = cell.self;
    try {
      if (a != null) {
        cell.unstashAll();
        a.postStop();
      }
    } catch (Throwable t) {
      self.system.log.error(t, "postStop of {} failed", self.path());
    } finally {
      cell.state = ActorCell.TERMINATED;
      cell.mailbox.close(); // what is still queued, or arrives later, is drained to dead letters
      DeathWatch.tellWatchersAndLetGo(cell);
      cell.parent.sendSystemMessage(new DeathWatchNotification(self, true, false));
      if (self.system.settings.debugLifecycle()) {
        self.system.log.debug("stopped {}", self.path());
      }
      cell.actor = null;
      cell.behavior = null;
      cell.lazyState = null;
    }
  }

  // =============================================================== own failure

  /** This actor failed: suspend, suspend the children, ask the parent. */
  static void handleInvokeFailure(ActorCell cell, Throwable cause, Envelope failedOn) {
    LocalActorRef self = cell.self;
    if ((cell.lazyState != null && cell.lazyState.failed) || cell.state == ActorCell.TERMINATED) {
      self.system.log.error(cause, "{} failed again while its failure was being handled", self.path());
      return;
    }
    TelemetryWiring.failed(cell);
    LazyCellState x = cell.lazyState();
    x.failed = true;
    x.failedEnvelope = failedOn == null ? null : new Envelope(failedOn.message(), failedOn.sender());
    cell.mailbox.suspend();
    CellChildren.forEach(cell, c -> c.sendSystemMessage(SystemMessages.SUSPEND));
    cell.parent.sendSystemMessage(new Failed(self, cause, self.path().uid()));
  }

  static void resume(ActorCell cell, Throwable cause) {
    if (cell.actor == null && cause != null) {
      recreate(cell, cause); // creation failed: resuming means trying again
      return;
    }
    if (cause != null && cell.lazyState != null) {
      cell.lazyState.failed = false;
      cell.lazyState.failedEnvelope = null;
    }
    cell.mailbox.resume();
    CellChildren.forEach(cell, c -> c.sendSystemMessage(new Resume(null)));
  }

  static void recreate(ActorCell cell, Throwable cause) {
    if (cell.state != ActorCell.ALIVE) {
      return;
    }
    TelemetryWiring.restarted(cell);
    Actor failedActor = cell.actor;
    if (failedActor != null) {
      Envelope failedOn = cell.lazyState == null ? null : cell.lazyState.failedEnvelope;
      cell.current = failedOn; // getSender() in preRestart is the failed message's sender (retry idiom)
      CellTimers.cancelAllOf(cell); // before preRestart, as in Pekko: the old incarnation's timers die with it
      try {
        cell.unstashAll();
        failedActor.preRestart(cause, Optional.ofNullable(failedOn == null ? null : failedOn.message()));
      } catch (Throwable t) {
        cell.self.system.log.error(t, "preRestart of {} failed; restarting anyway", cell.self.path());
      } finally {
        cell.current = null;
      }
    }
    LazyCellState.cancelReceiveTimeout(cell);
    CellTimers.cancelAllOf(cell); // and any a preRestart started: the new instance starts with none
    cell.actor = null;
    cell.behavior = null;
    LazyCellState.forgetBehaviors(cell);
    if (cell.lazyState != null) {
      cell.lazyState.failedEnvelope = null;
    }
    if (CellChildren.anyStopping(cell)) {
      cell.lazyState().pendingRecreate = cause; // finish once the children stopped in preRestart are gone
    } else {
      finishRecreate(cell, cause);
    }
  }

  /** The children stopped in preRestart are gone: the new instance starts. */
  static void finishRecreate(ActorCell cell, Throwable cause) {
    if (cell.lazyState != null) {
      cell.lazyState.failed = false;
    }
    cell.mailbox.resume();
    try {
      newInstance(cell);
      cell.actor.postRestart(cause);
    } catch (Throwable t) {
      handleInvokeFailure(cell, initFailure(cell, "exception during restart", t), null);
      return;
    }
    CellChildren.forEach(cell, c -> c.sendSystemMessage(new Resume(cause)));
  }

  // =============================================================== a child's failure

  /** A child failed: its parent's supervisor strategy decides. */
  static void handleChildFailure(ActorCell cell, Failed f) {
    Children c = cell.children;
    ChildStats stats = c == null ? null : c.stats(f.child());
    if (stats == null || cell.state != ActorCell.ALIVE) {
      return; // an earlier incarnation, or we are stopping it anyway
    }
    SupervisorStrategy strategy =
        cell.actor != null ? cell.actor.supervisorStrategy() : SupervisorStrategy.defaultStrategy();
    Throwable cause = f.cause();
    Directive directive;
    try {
      directive = strategy.decider().decide(cause);
    } catch (RuntimeException e) {
      directive = Directive.ESCALATE;
    }
    if (directive == null) {
      directive = Directive.ESCALATE;
    }
    List<ChildStats> targets = strategy.appliesToAllChildren() ? allStats(c) : List.of(stats);
    boolean restartAllowed = true;
    if (directive == Directive.RESTART) {
      long now = cell.self.system.nanoTime();
      for (ChildStats s : targets) {
        restartAllowed &= s.requestRestartPermission(strategy, now);
      }
    }
    if (strategy.loggingEnabled()) {
      logFailure(cell, f.child(), cause, directive, decision(strategy, directive, restartAllowed, targets.size()));
    }
    switch (directive) {
      case RESUME -> f.child().sendSystemMessage(new Resume(cause));
      case RESTART -> {
        for (ChildStats s : targets) {
          if (!restartAllowed) {
            CellChildren.stop(s);
          } else if (!s.isStopping()) {
            if (s != stats) {
              s.child.sendSystemMessage(SystemMessages.SUSPEND);
            }
            s.child.sendSystemMessage(new Recreate(cause));
          }
        }
      }
      case STOP -> targets.forEach(CellChildren::stop);
      case ESCALATE -> throwUnchecked(cause);
    }
  }

  /** The decision as the log line words it: the directive, and what turned a restart into a stop. */
  private static String decision(
      SupervisorStrategy strategy, Directive directive, boolean restartAllowed, int targets) {
    String own = strategy.decisionWording(directive);
    if (own != null) {
      return own; // the strategy does more than the directive (a backoff supervisor) and says what
    }
    String word = directive.name().toLowerCase(Locale.ROOT);
    if (directive == Directive.RESTART && !restartAllowed) {
      Duration window = strategy.withinTimeRange();
      word = "stop (restart limit of " + strategy.maxNrOfRetries()
          + (window == null ? "" : " within " + describe(window)) + " reached)";
    } else if (directive == Directive.ESCALATE) {
      return "escalate (the supervisor fails with it)";
    }
    if (strategy.appliesToAllChildren() && targets > 1) {
      word += " (all " + targets + " children)";
    }
    return word;
  }

  /**
   * One line per failure: the actor's path, the exception and the decision. The stack trace comes
   * with it unless the failure is {@linkplain ExpectedFailure expected}; an escalated failure's
   * trace comes with the line of the supervisor that finally handles it.
   */
  private static void logFailure(
      ActorCell cell, ActorRef child, Throwable cause, Directive directive, String decision) {
    LoggingAdapter log = cell.self.system.log;
    String what = describe(cause);
    if (isExpected(cause)) {
      log.warning("{} failed: {}; {}", child.path(), what, decision);
    } else if (directive == Directive.ESCALATE) {
      log.error("{} failed: {}; {}", child.path(), what, decision);
    } else if (directive == Directive.RESUME) {
      log.warning("{} failed: {}; {}", child.path(), what, decision, cause); // the trailing throwable is the stack trace
    } else {
      log.error(cause, "{} failed: {}; {}", child.path(), what, decision);
    }
  }

  /** Whether a failure is marked {@link ExpectedFailure} (a failed creation: whether its cause is). */
  static boolean isExpected(Throwable cause) {
    return expected(cause) || (cause instanceof ActorInitializationException && expected(cause.getCause()));
  }

  private static boolean expected(Throwable t) {
    return t instanceof ExpectedFailure || (t instanceof RemoteCause r && r.expectedFailure());
  }

  /**
   * The exception as the decider saw it and, for a failed creation, what made it fail; a failure
   * of another node shows its own class around the original's, {@code RemoteFailure(com.x.Flaky:
   * flaked)}, since that is what a decider matches on.
   */
  private static String describe(Throwable cause) {
    if (cause instanceof ActorInitializationException && cause.getCause() != null) {
      return cause + ", caused by " + describe(cause.getCause());
    }
    if (cause instanceof RemoteCause) {
      return cause.getClass().getSimpleName() + "(" + cause + ")";
    }
    return String.valueOf(cause);
  }

  private static String describe(Duration d) {
    long ms = d.toMillis();
    if (ms % 60_000 == 0) {
      return ms / 60_000 + " min";
    }
    return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
  }

  private static List<ChildStats> allStats(Children c) {
    List<ChildStats> out = new ArrayList<>();
    for (InternalActorRef r : c.refs()) {
      ChildStats s = c.stats(r);
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> void throwUnchecked(Throwable t) throws T {
    throw (T) t;
  }
}
