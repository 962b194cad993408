package dev.troupe.pattern;

import dev.troupe.actor.AbstractActorWithTimers;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Decider;
import dev.troupe.actor.Directive;
import dev.troupe.actor.OneForOneStrategy;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.BackoffSupervisor.CurrentChild;
import dev.troupe.pattern.BackoffSupervisor.GetCurrentChild;
import dev.troupe.pattern.BackoffSupervisor.GetRestartCount;
import dev.troupe.pattern.BackoffSupervisor.Reset;
import dev.troupe.pattern.BackoffSupervisor.RestartCount;
import java.time.Duration;
import java.util.Optional;

/**
 * The actor behind {@link BackoffSupervisor#props}: watches its one child, and schedules the next
 * one with its own timers when the child terminates for a reason its {@link BackoffOpts} covers.
 */
final class BackoffSupervisorActor extends AbstractActorWithTimers {
  private static final Object START_CHILD = new Object() {
    @Override
    public String toString() {
      return "BackoffSupervisor.StartChild";
    }
  };

  /** The auto-reset timer's message: resets the count if no recreation happened meanwhile. */
  private record ResetIfStill(int restartCount) {}

  private final BackoffOpts opts;
  private final SupervisorStrategy strategy;
  private ActorRef child; // null while down
  private int restartCount;
  private boolean childFailed; // onFailure: the child is stopping because of a failure to back off from
  private boolean backingOff; // onFailure: the decider's last decision was a restart after backoff
  private Duration nextDelay; // onFailure: the backoff decided with it (the log line says it)

  BackoffSupervisorActor(BackoffOpts opts) {
    this.opts = opts;
    this.strategy = opts.trigger() == BackoffOpts.Trigger.FAILURE ? failureStrategy(opts.strategy()) : stopStrategy(opts.strategy());
  }

  /**
   * onFailure: a restart directive becomes "stop now, recreate after the delay", and the failure's
   * log line says so ("restart after backoff of 400 ms", or that the restart limit was reached),
   * not "stop".
   */
  private SupervisorStrategy failureStrategy(SupervisorStrategy user) {
    Decider inner = user != null ? user.decider() : cause -> cause instanceof Exception ? Directive.RESTART : Directive.ESCALATE;
    Decider decider = cause -> {
      Directive d = inner.decide(cause); // deciders run on this actor's thread
      backingOff = d == Directive.RESTART;
      if (backingOff) {
        childFailed = true;
        nextDelay = BackoffSupervisor.calculateDelay(restartCount, opts.minBackoff(), opts.maxBackoff(), opts.randomFactor());
        return Directive.STOP;
      }
      return d;
    };
    return new OneForOneStrategy(-1, null, decider, user == null || user.loggingEnabled())
        .withDecisionWording(d -> d == Directive.STOP && backingOff ? backoffWording() : null);
  }

  private String backoffWording() {
    int max = opts.maxNrOfRetries();
    if (max >= 0 && restartCount >= max) {
      return "stop (backoff restart limit of " + max + " reached; the backoff supervisor stops too)";
    }
    return "restart after backoff of " + nextDelay.toMillis() + " ms (restart " + (restartCount + 1)
        + (max >= 0 ? " of " + max : "") + ")";
  }

  private static SupervisorStrategy stopStrategy(SupervisorStrategy user) {
    return user != null ? user : SupervisorStrategy.defaultStrategy();
  }

  @Override
  public SupervisorStrategy supervisorStrategy() {
    return strategy;
  }

  @Override
  public void preStart() {
    startChild();
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .match(Terminated.class, t -> t.actor().equals(child), this::childTerminated)
        .matchEquals(START_CHILD, m -> startChild())
        .match(ResetIfStill.class, r -> {
          if (r.restartCount() == restartCount && child != null) {
            restartCount = 0;
          }
        })
        .match(GetCurrentChild.class, m -> getSender().tell(new CurrentChild(Optional.ofNullable(child)), getSelf()))
        .match(GetRestartCount.class, m -> getSender().tell(new RestartCount(restartCount), getSelf()))
        .match(Reset.class, m -> restartCount = 0)
        .matchAny(this::forward)
        .build();
  }

  private void startChild() {
    if (child != null) {
      return;
    }
    childFailed = false;
    nextDelay = null;
    child = getContext().watch(getContext().actorOf(opts.childProps(), opts.childName()));
    opts.autoReset().ifPresent(d -> getTimers().startSingleTimer("reset", new ResetIfStill(restartCount), d));
  }

  private void childTerminated(Terminated t) {
    child = null;
    getTimers().cancel("reset");
    boolean again = opts.trigger() == BackoffOpts.Trigger.STOP || childFailed;
    if (!again) {
      getContext().stop(getSelf()); // onFailure and the child stopped for good: so does its supervisor
      return;
    }
    int max = opts.maxNrOfRetries();
    if (max >= 0 && restartCount >= max) {
      getContext().stop(getSelf());
      return;
    }
    Duration delay =
        childFailed && nextDelay != null // the delay the failure's log line announced
            ? nextDelay
            : BackoffSupervisor.calculateDelay(restartCount, opts.minBackoff(), opts.maxBackoff(), opts.randomFactor());
    restartCount++;
    getTimers().startSingleTimer("restart", START_CHILD, delay);
  }

  private void forward(Object message) {
    if (child != null) {
      child.forward(message, getContext());
    } else if (opts.replyWhileStopped() != null) {
      getSender().tell(opts.replyWhileStopped(), getSelf());
    } else {
      getContext().getSystem().deadLetters().tell(new DeadLetter(message, getSender(), getSelf()), getSender());
    }
  }
}
