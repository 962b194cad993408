package dev.troupe.actor.internal;

import dev.troupe.actor.internal.ref.DeadLetterReason;

import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.Actor;
import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorKilledException;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSelection;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeathPactException;
import dev.troupe.actor.Identify;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.Kill;
import dev.troupe.actor.LoggingAdapter;
import dev.troupe.actor.NotInfluenceReceiveTimeout;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Procedure;
import dev.troupe.actor.Props;
import dev.troupe.actor.ReceiveTimeout;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.TimerScheduler;
import dev.troupe.actor.UnhandledMessage;
import dev.troupe.actor.UntypedActor;
import dev.troupe.runtime.spi.SystemMessages.AddressTerminated;
import dev.troupe.runtime.spi.SystemMessages.Create;
import dev.troupe.runtime.spi.SystemMessages.DeathWatchNotification;
import dev.troupe.runtime.spi.SystemMessages.Failed;
import dev.troupe.runtime.spi.SystemMessages.Recreate;
import dev.troupe.runtime.spi.SystemMessages.Resume;
import dev.troupe.runtime.spi.SystemMessages.Suspend;
import dev.troupe.runtime.spi.SystemMessages.Terminate;
import dev.troupe.runtime.spi.SystemMessages.Unwatch;
import dev.troupe.runtime.spi.SystemMessages.Watch;
import dev.troupe.actor.internal.dispatch.Dispatcher;
import dev.troupe.actor.internal.dispatch.Envelope;
import dev.troupe.actor.internal.dispatch.Mailbox;
import dev.troupe.actor.internal.dispatch.MailboxOwner;
import dev.troupe.actor.internal.dispatch.MailboxType;
import dev.troupe.runtime.spi.SystemMessage;
import dev.troupe.actor.spi.CellSpi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * One actor's runtime state and its invoke loop: the mailbox hands it user messages ({@link
 * #invoke}) and system messages ({@link #systemInvoke}), and it dispatches them to the actor or to
 * the part that owns the concern. Everything not marked otherwise is touched only on the thread
 * that currently runs the mailbox ("actor thread"); the mailbox's scheduling hand-off orders
 * consecutive runs.
 *
 * <p>Its parts, each a class of its own over this cell's fields:
 *
 * <ul>
 *   <li>{@link FaultHandling} — creation, failure, resume, restart and stop of an incarnation;
 *   <li>{@link CellChildren} — creating, naming, finding and stopping children ({@link Children}
 *       is their thread-safe container);
 *   <li>{@link DeathWatch} — watch, unwatch, {@code Terminated}, and nodes that go away;
 *   <li>{@link LazyCellState} — become, stash, receive timeout, timers ({@link CellTimers}), the
 *       actor's logger: allocated on first use.
 * </ul>
 *
 * <p>Lifecycle: created → (Create) alive → (Terminate) terminating, waiting for children →
 * terminated (postStop ran, mailbox closed, watchers and parent notified).
 */
public final class ActorCell implements CellSpi, MailboxOwner {
  static final int ALIVE = 0;
  static final int TERMINATING = 1;
  static final int TERMINATED = 2;

  /** Builds the cell of a ref inside the ref's constructor (the two point at each other). */
  @FunctionalInterface
  interface Factory {
    ActorCell create(LocalActorRef self);
  }

  final LocalActorRef self; // the system is self.system: one field less per actor
  final InternalActorRef parent;
  final Props props;
  final Mailbox mailbox;

  // any thread
  volatile Children children; // lazily created (CellChildren): most actors have none
  volatile int state = ALIVE; // written on the actor thread, read by child creators

  // actor thread only
  Actor actor;
  AbstractActor.Receive behavior; // null for an UntypedActor: onReceive directly
  Envelope current;
  DeathWatch watch; // lazily created
  LazyCellState lazyState; // lazily created

  ActorCell(
      LocalActorRef self,
      InternalActorRef parent,
      Props props,
      Dispatcher dispatcher,
      MailboxType mailboxType) {
    this.self = self;
    this.parent = parent;
    this.props = props;
    this.mailbox = dispatcher.newMailbox(mailboxType);
    this.mailbox.setOwner(this);
  }

  LazyCellState lazyState() {
    LazyCellState x = lazyState;
    if (x == null) {
      x = new LazyCellState();
      lazyState = x;
    }
    return x;
  }

  /** Enqueues the Create message; the instance is built on the actor's own thread. */
  void start() {
    mailbox.systemEnqueue(SystemMessages.CREATE);
  }

  /**
   * Actor thread: whether the actor failed and waits for its supervisor's decision. Right after
   * {@link #invoke} it tells whether that message failed (a waiting actor processes no message);
   * the tracing module marks the message's span with it.
   *
   * @return whether a failure is being handled
   */
  public boolean isFailed() {
    LazyCellState x = lazyState;
    return x != null && x.failed;
  }

  boolean isTerminated() {
    return state == TERMINATED;
  }

  // =============================================================== message processing

  @Override
  public void invoke(Envelope envelope) {
    Object message = envelope.message();
    current = envelope;
    try {
      if (message instanceof WatchedTerminated w) {
        receiveTerminated(w.terminated());
      } else if (message instanceof ScheduledTick tick) {
        if (tick.timer() != null) {
          message = receiveTimer(tick.timer()); // for the receive timeout below: the user's message
        } else if (LazyCellState.receiveTimeoutDue(this, tick)) {
          current = new Envelope(ReceiveTimeout.getInstance(), envelope.sender()); // a stash keeps the timeout, not the tick
          deliver(ReceiveTimeout.getInstance());
        }
      } else if (message == PoisonPill.getInstance()) {
        self.stop();
      } else if (message == Kill.getInstance()) {
        throw new ActorKilledException("Kill");
      } else if (message instanceof Identify id) {
        sender().tell(new ActorIdentity(id.messageId(), Optional.of(self)), self);
      } else {
        deliver(message);
      }
    } catch (Throwable t) {
      FaultHandling.handleInvokeFailure(this, t, current); // a timer's: the user's message, not the tick
    } finally {
      LazyCellState x = lazyState;
      if (x != null) {
        if (x.receiveTimeoutNanos != 0 && !(message instanceof NotInfluenceReceiveTimeout)) {
          x.lastActivityNanos = self.system.nanoTime();
        }
        x.currentStashed = false;
      }
      current = null;
      envelope.clear();
    }
  }

  /**
   * For the testkit's {@code TestActorRef}.
   *
   * @param ref a ref
   * @return the cell of a local actor this engine made, or null for any other ref
   */
  public static ActorCell ofLocalRef(ActorRef ref) {
    return ref instanceof LocalActorRef local ? local.cell() : null;
  }

  /**
   * For the testkit's {@code TestActorRef}.
   *
   * @return the actor instance now; null before it is created, after a failed start, or once the
   *     actor has terminated
   */
  public Actor actorNow() {
    return isTerminated() ? null : actor;
  }

  /**
   * For the testkit's {@code TestActorRef}: hands one message to the actor on the calling thread,
   * with {@code sender} as its sender, and lets what it throws reach the caller instead of the
   * supervisor. Only for an actor whose mailbox runs on the calling thread (the testkit's
   * calling-thread dispatcher), between its messages.
   *
   * @param message the message
   * @param sender its sender
   * @throws Exception what the actor threw
   */
  public void receiveNow(Object message, ActorRef sender) throws Exception {
    Envelope before = current;
    current = new Envelope(message, sender);
    try {
      deliver(message);
    } finally {
      current = before;
    }
  }

  /** Hands a message to the current behaviour, or to {@code onReceive} of an untyped actor. */
  private void deliver(Object message) throws Exception {
    AbstractActor.Receive b = behavior;
    if (b == null) {
      ((UntypedActor) actor).onReceive(message);
    } else if (!b.receive(message)) {
      actor.unhandled(message);
    }
  }

  /**
   * A timer's tick: delivers its message unless the timer was cancelled or replaced since it was
   * sent. The current envelope becomes the user's message, so that a stash keeps that (not the
   * tick) and the sender is this actor.
   *
   * @return the message delivered, or the (stale, never timeout-influencing) tick
   */
  private Object receiveTimer(CellTimers.Timer t) throws Exception {
    if (!CellTimers.take(this, t)) {
      return t.tick;
    }
    current = new Envelope(t.message, self);
    try {
      deliver(t.message);
    } finally {
      CellTimers.handled(this, t);
    }
    return t.message;
  }

  /**
   * A watched actor's {@code Terminated}: delivered unless the actor unwatched it since. The
   * current envelope becomes the plain {@code Terminated}, so that a stash keeps that, and
   * unstashing delivers it (the wrapper's check is spent once it was delivered).
   */
  private void receiveTerminated(Terminated t) throws Exception {
    if (DeathWatch.takeQueuedTerminated(this, t.actor())) {
      current = new Envelope(t, current.sender());
      deliver(t);
    }
  }

  @Override
  public void systemInvoke(SystemMessage message) {
    if (state == TERMINATED) {
      afterTermination(message);
      return;
    }
    try {
      if (message instanceof Create) {
        FaultHandling.create(this);
      } else if (message instanceof Failed f) {
        FaultHandling.handleChildFailure(this, f);
      } else if (message instanceof DeathWatchNotification d) {
        DeathWatch.watchedActorTerminated(this, d);
      } else if (message instanceof Watch w) {
        DeathWatch.watcherArrived(this, w);
      } else if (message instanceof Unwatch u) {
        DeathWatch.watcherLeft(this, u);
      } else if (message instanceof Suspend) {
        mailbox.suspend();
        CellChildren.forEach(this, c -> c.sendSystemMessage(SystemMessages.SUSPEND));
      } else if (message instanceof Resume r) {
        FaultHandling.resume(this, r.cause());
      } else if (message instanceof Recreate r) {
        FaultHandling.recreate(this, r.cause());
      } else if (message instanceof Terminate) {
        FaultHandling.terminate(this);
      } else if (message instanceof AddressTerminated a) {
        DeathWatch.addressTerminated(this, a.address());
      }
    } catch (Throwable t) {
      FaultHandling.handleInvokeFailure(this, t, null);
    }
  }

  /** System messages reaching an actor that already terminated. */
  private void afterTermination(SystemMessage message) {
    // equals, not ==: a watch from another node names the watchee by path and uid, and the ref it
    // was resolved to may be another object than self (e.g. an absent ref once the name is free)
    if (message instanceof Watch w && w.watchee().equals(self) && !w.watcher().equals(self)) {
      w.watcher().sendSystemMessage(new DeathWatchNotification(self, false, false));
    }
  }

  @Override
  public void deadLetter(Object message, ActorRef sender, boolean mailboxFull) {
    if (message instanceof ScheduledTick tick) {
      if (tick.timer() == null || mailbox.isClosed()) {
        return; // the actor's own timing, stale once it has stopped: not a lost message
      }
      message = tick.timer().message; // a full bounded mailbox: the user's message is what was lost
    }
    self.system.deadLetters.publish(
        message,
        sender,
        self,
        mailboxFull ? DeadLetterReason.MAILBOX_FULL : DeadLetterReason.RECIPIENT_STOPPED);
  }

  /**
   * A death-watch notification queued behind the dead actor's earlier messages. The wrapper tells
   * it apart from a {@code Terminated} that user code sends or forwards (an ordinary message):
   * only this one is dropped if the actor unwatched in the meantime.
   */
  record WatchedTerminated(Terminated terminated) {}

  /**
   * A message the cell scheduled to itself: the receive-timeout nudge ({@code timer} null, with
   * the timeout's generation) or a timer's tick. One type for both keeps the invoke loop's checks
   * for plain messages as they were. Never user-visible; never resets the receive timeout itself.
   */
  record ScheduledTick(CellTimers.Timer timer, int generation) implements NotInfluenceReceiveTimeout {}

  // =============================================================== for the runtime

  /**
   * Creates, registers and starts a child. Called on the actor thread, or on any thread for the
   * guardians.
   *
   * @param props the child's props
   * @param name its name, or null for a generated one
   * @param internal whether the runtime creates it (names starting with {@code $} allowed)
   * @return the child's ref
   */
  ActorRef attachChild(Props props, String name, boolean internal) {
    return CellChildren.attach(this, props, name, internal);
  }

  /** @return the child with this name (used by path lookup and selections), or null */
  InternalActorRef childByName(String name) {
    return CellChildren.byName(this, name);
  }

  List<InternalActorRef> childrenSnapshot() {
    return CellChildren.snapshot(this);
  }

  /**
   * The sizes of the death-watch state, for leak tests; read it only after the actor quiesced
   * (e.g. after it answered a message), as it belongs to the actor's thread.
   */
  int[] watchCounts() {
    DeathWatch w = watch;
    return w == null ? new int[3] : w.counts();
  }

  // =============================================================== CellSpi / ActorContext

  @Override
  public void unhandled(Object message) {
    if (message instanceof Terminated t) {
      throw new DeathPactException(t.actor());
    }
    self.system.eventStream.publish(new UnhandledMessage(message, sender(), self));
    if (self.system.settings.debugUnhandled()) {
      self.system.log.debug("unhandled message {} from {} at {}", message, sender(), self.path());
    }
  }

  private ActorRef sender() {
    Envelope e = current;
    ActorRef s = e == null ? null : e.sender();
    return s == null ? self.system.deadLetters : s;
  }

  @Override
  public ActorRef watch(ActorRef subject) {
    DeathWatch.watch(this, InternalActorRef.internal(subject), null);
    return subject;
  }

  @Override
  public ActorRef watchWith(ActorRef subject, Object message) {
    DeathWatch.watch(this, InternalActorRef.internal(subject), message);
    return subject;
  }

  @Override
  public ActorRef unwatch(ActorRef subject) {
    DeathWatch.unwatch(this, InternalActorRef.internal(subject));
    return subject;
  }

  @Override
  public void setReceiveTimeout(Duration timeout) {
    LazyCellState.setReceiveTimeout(this, timeout);
  }

  @Override
  public Duration getReceiveTimeout() {
    return LazyCellState.receiveTimeout(this);
  }

  @Override
  public void stash() {
    LazyCellState.stash(this);
  }

  @Override
  public void unstash() {
    LazyCellState.unstash(this);
  }

  @Override
  public void unstashAll() {
    LazyCellState.unstashAll(this);
  }

  @Override
  public int stashSize() {
    return LazyCellState.stashSize(this);
  }

  @Override
  public boolean deliverStashed() throws Exception {
    Envelope next = LazyCellState.pollStashed(this);
    if (next == null) {
      return false;
    }
    // the stash holds users' messages only: a timer's tick, the receive timeout and a watched
    // Terminated make the current envelope the message they deliver before it runs
    Envelope before = current;
    boolean stashedBefore = LazyCellState.swapCurrentStashed(this, false);
    current = next;
    deliver(next.message()); // on an exception current stays the failing message, for the supervisor
    current = before;
    LazyCellState.swapCurrentStashed(this, stashedBefore);
    return true;
  }

  @Override
  public TimerScheduler timers() {
    return CellTimers.of(this);
  }

  @Override
  public void become(AbstractActor.Receive b) {
    LazyCellState.become(this, b, true);
  }

  @Override
  public void become(AbstractActor.Receive b, boolean discardOld) {
    LazyCellState.become(this, b, discardOld);
  }

  @Override
  public void become(Procedure<Object> b) {
    LazyCellState.become(this, AbstractActor.Receive.of(b), true);
  }

  @Override
  public void become(Procedure<Object> b, boolean discardOld) {
    LazyCellState.become(this, AbstractActor.Receive.of(b), discardOld);
  }

  @Override
  public void unbecome() {
    LazyCellState.unbecome(this);
  }

  @Override
  public ActorRef actorOf(Props p) {
    return attachChild(p, null, false);
  }

  @Override
  public ActorRef actorOf(Props p, String name) {
    if (name == null) {
      throw new InvalidActorNameException("actor name must not be null");
    }
    return attachChild(p, name, false);
  }

  @Override
  public void stop(ActorRef subject) {
    CellChildren.stopChildOrOther(this, InternalActorRef.internal(subject));
  }

  @Override
  public Iterable<ActorRef> getChildren() {
    Children c = children;
    return c == null ? List.of() : new ArrayList<>(c.liveRefs());
  }

  @Override
  public Optional<ActorRef> findChild(String name) {
    Children c = children;
    return Optional.ofNullable(c == null ? null : c.liveChild(name));
  }

  @Override
  public ActorRef getParent() {
    return parent;
  }

  @Override
  public ActorRef getSelf() {
    return self;
  }

  @Override
  public ActorRef getSender() {
    return sender();
  }

  @Override
  public ActorSystem getSystem() {
    return self.system;
  }

  @Override
  public Props getProps() {
    return props;
  }

  @Override
  public LoggingAdapter getLog() {
    return LazyCellState.log(this);
  }

  @Override
  public Executor dispatcher() {
    return mailbox.dispatcher().executor();
  }

  @Override
  public ActorSelection actorSelection(String path) {
    return self.system.selection(self, path);
  }

  @Override
  public ActorSelection actorSelection(ActorPath path) {
    return self.system.actorSelection(path);
  }

  @Override
  public String toString() {
    return "ActorCell[" + self.path() + "]";
  }

  @Override
  public String describe() {
    Object a = actor; // racy read from a monitoring thread: a class name at worst out of date
    return self.path() + (a == null ? "" : " (" + a.getClass().getName() + ")");
  }
}
