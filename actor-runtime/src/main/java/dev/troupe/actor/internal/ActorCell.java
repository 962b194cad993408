package dev.troupe.actor.internal;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.Actor;
import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorInitializationException;
import dev.troupe.actor.ActorKilledException;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSelection;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Cancellable;
import dev.troupe.actor.DeathPactException;
import dev.troupe.actor.Directive;
import dev.troupe.actor.Identify;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.Kill;
import dev.troupe.actor.NotInfluenceReceiveTimeout;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Procedure;
import dev.troupe.actor.Props;
import dev.troupe.actor.ReceiveTimeout;
import dev.troupe.actor.StashOverflowException;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.UntypedActor;
import dev.troupe.actor.UnhandledMessage;
import dev.troupe.actor.internal.SystemMessages.Create;
import dev.troupe.actor.internal.SystemMessages.DeathWatchNotification;
import dev.troupe.actor.internal.SystemMessages.Failed;
import dev.troupe.actor.internal.SystemMessages.Recreate;
import dev.troupe.actor.internal.SystemMessages.Resume;
import dev.troupe.actor.internal.SystemMessages.Suspend;
import dev.troupe.actor.internal.SystemMessages.Terminate;
import dev.troupe.actor.internal.SystemMessages.Unwatch;
import dev.troupe.actor.internal.SystemMessages.Watch;
import dev.troupe.actor.internal.dispatch.Dispatcher;
import dev.troupe.actor.internal.dispatch.Envelope;
import dev.troupe.actor.internal.dispatch.Mailbox;
import dev.troupe.actor.internal.dispatch.MailboxOwner;
import dev.troupe.actor.internal.dispatch.MailboxType;
import dev.troupe.actor.internal.dispatch.SystemMessage;
import dev.troupe.actor.spi.ActorConstruction;
import dev.troupe.actor.spi.CellSpi;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.Executor;

/**
 * One actor's runtime state: its instance, behaviour, children, watchers and supervision, driven
 * by its {@link Mailbox}. Everything not marked otherwise is touched only on the thread that
 * currently runs the mailbox ("actor thread"); the mailbox's scheduling hand-off orders
 * consecutive runs.
 *
 * <p>Lifecycle: created → (Create) alive → (Terminate) terminating, waiting for children →
 * terminated (postStop ran, mailbox closed, watchers and parent notified). A failure suspends the
 * mailbox and the children and reports {@link Failed} to the parent, which answers with Resume,
 * Recreate or Terminate, or fails itself (escalate).
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
  private volatile Children children; // lazily created: most actors have none
  private volatile int state = ALIVE; // written on the actor thread, read by child creators

  // actor thread only
  private Actor actor;
  private AbstractActor.Receive behavior; // null for an UntypedActor: onReceive directly
  private Envelope current;
  private DeathWatch watch;
  private Extras extras;

  /**
   * What most actors never use, allocated on first use: a million idle actors should not carry a
   * million empty stashes and timeout fields. Actor thread only.
   */
  private static final class Extras {
    ArrayDeque<AbstractActor.Receive> behaviorStack; // created by the first become()
    AbstractActor.Receive initialBehavior; // what unbecome() returns to; saved by the first become()
    Envelope failedEnvelope; // a copy: preRestart sees the message and its sender
    Throwable pendingRecreate;
    ArrayDeque<Envelope> stash;
    boolean currentStashed; // the message being processed was stashed (once is the limit)
    boolean failed; // reported a failure to the parent and waits for its decision
    long receiveTimeoutNanos;
    long lastActivityNanos;
    int receiveTimeoutGeneration;
    Cancellable receiveTimeoutTask;
  }

  private Extras extras() {
    Extras x = extras;
    if (x == null) {
      x = new Extras();
      extras = x;
    }
    return x;
  }

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

  /** Enqueues the Create message; the instance is built on the actor's own thread. */
  void start() {
    mailbox.systemEnqueue(SystemMessages.CREATE);
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
      } else if (message instanceof ReceiveTimeoutTick tick) {
        receiveTimeoutTick(tick);
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
      handleInvokeFailure(t, envelope);
    } finally {
      Extras x = extras;
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

  /** Hands a message to the current behaviour, or to {@code onReceive} of an untyped actor. */
  private void deliver(Object message) throws Exception {
    AbstractActor.Receive b = behavior;
    if (b == null) {
      ((UntypedActor) actor).onReceive(message);
    } else if (!b.receive(message)) {
      actor.unhandled(message);
    }
  }

  private void receiveTerminated(Terminated t) throws Exception {
    if (watch != null && watch.takeQueuedTerminated(t.actor())) {
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
        create();
      } else if (message instanceof Failed f) {
        handleFailure(f);
      } else if (message instanceof DeathWatchNotification d) {
        watchedActorTerminated(d);
      } else if (message instanceof Watch w) {
        addWatcher(w);
      } else if (message instanceof Unwatch u) {
        if (watch != null) {
          watch.removeWatcher(u.watcher());
        }
      } else if (message instanceof Suspend) {
        mailbox.suspend();
        forEachChild(c -> c.sendSystemMessage(SystemMessages.SUSPEND));
      } else if (message instanceof Resume r) {
        faultResume(r.cause());
      } else if (message instanceof Recreate r) {
        faultRecreate(r.cause());
      } else if (message instanceof Terminate) {
        terminate();
      } else if (message instanceof SystemMessages.AddressTerminated a) {
        addressTerminated(a.address());
      }
    } catch (Throwable t) {
      handleInvokeFailure(t, null);
    }
  }

  /** System messages reaching an actor that already terminated. */
  private void afterTermination(SystemMessage message) {
    if (message instanceof Watch w && w.watchee() == self && w.watcher() != self) {
      w.watcher().sendSystemMessage(new DeathWatchNotification(self, false, false));
    }
  }

  @Override
  public void deadLetter(Object message, ActorRef sender) {
    self.system.deadLetters.publish(message, sender, self);
  }

  // =============================================================== lifecycle

  private void create() {
    try {
      newInstance();
      actor.preStart();
      if (self.system.settings.debugLifecycle()) {
        self.system.log.debug("started {} ({})", self.path(), actor.getClass().getName());
      }
    } catch (Throwable t) {
      handleInvokeFailure(initFailure("exception during creation", t), null);
    }
  }

  private ActorInitializationException initFailure(String what, Throwable t) {
    return t instanceof ActorInitializationException a
        ? a
        : new ActorInitializationException(self, what, t);
  }

  private void newInstance() throws Exception {
    Actor a;
    ActorConstruction.begin(this);
    try {
      a = props.newActor();
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
    actor = a;
    behavior = initial;
    if (extras != null) {
      extras.behaviorStack = null;
      extras.initialBehavior = null;
    }
  }

  private void terminate() {
    if (state != ALIVE) {
      return;
    }
    state = TERMINATING;
    cancelReceiveTimeout();
    mailbox.suspend(); // no user message is processed while children stop
    stopChildren();
    if (childrenEmpty()) {
      finishTerminate();
    }
  }

  private void stopChildren() {
    Children c = children;
    if (c != null) {
      for (InternalActorRef r : c.refs()) {
        ChildStats s = c.stats(r);
        if (s != null) {
          stopChild(s);
        }
      }
    }
  }

  private void finishTerminate() {
    Actor a = actor;
    try {
      if (a != null) {
        unstashAll();
        a.postStop();
      }
    } catch (Throwable t) {
      self.system.log.error(t, "postStop of {} failed", self.path());
    } finally {
      state = TERMINATED;
      mailbox.close(); // what is still queued, or arrives later, is drained to dead letters
      if (watch != null) {
        watch.notifyWatchers(self);
        watch.unwatchAll(self);
        if (watch.addressSubscribed) {
          self.system.unsubscribeAddressTerminated(self);
        }
        watch = null;
      }
      parent.sendSystemMessage(new DeathWatchNotification(self, true, false));
      if (self.system.settings.debugLifecycle()) {
        self.system.log.debug("stopped {}", self.path());
      }
      actor = null;
      behavior = null;
      extras = null;
    }
  }

  // =============================================================== supervision

  private void handleInvokeFailure(Throwable cause, Envelope failedOn) {
    if ((extras != null && extras.failed) || state == TERMINATED) {
      self.system.log.error(cause, "{} failed again while its failure was being handled", self.path());
      return;
    }
    Extras x = extras();
    x.failed = true;
    x.failedEnvelope = failedOn == null ? null : new Envelope(failedOn.message(), failedOn.sender());
    mailbox.suspend();
    forEachChild(c -> c.sendSystemMessage(SystemMessages.SUSPEND));
    parent.sendSystemMessage(new Failed(self, cause, self.path().uid()));
  }

  private void handleFailure(Failed f) {
    Children c = children;
    ChildStats stats = c == null ? null : c.stats(f.child());
    if (stats == null || state != ALIVE) {
      return; // an earlier incarnation, or we are stopping it anyway
    }
    SupervisorStrategy strategy =
        actor != null ? actor.supervisorStrategy() : SupervisorStrategy.defaultStrategy();
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
    if (strategy.loggingEnabled() && directive != Directive.ESCALATE) {
      logFailure(f.child(), cause, directive);
    }
    switch (directive) {
      case RESUME -> f.child().sendSystemMessage(new Resume(cause));
      case RESTART -> {
        long now = self.system.nanoTime();
        boolean allowed = true;
        for (ChildStats s : targets) {
          allowed &= s.requestRestartPermission(strategy, now);
        }
        for (ChildStats s : targets) {
          if (!allowed) {
            stopChild(s);
          } else if (!s.isStopping()) {
            if (s != stats) {
              s.child.sendSystemMessage(SystemMessages.SUSPEND);
            }
            s.child.sendSystemMessage(new Recreate(cause));
          }
        }
      }
      case STOP -> targets.forEach(this::stopChild);
      case ESCALATE -> throwUnchecked(cause);
    }
  }

  private void logFailure(ActorRef child, Throwable cause, Directive directive) {
    if (directive == Directive.RESUME) {
      self.system.log.warning("{} failed and is resumed: {}", child.path(), cause.toString());
    } else {
      self.system.log.error(cause, "{} failed ({})", child.path(), directive.name().toLowerCase());
    }
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

  private void stopChild(ChildStats s) {
    if (!s.isStopping()) {
      s.markStopping();
      s.child.stop();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> void throwUnchecked(Throwable t) throws T {
    throw (T) t;
  }

  private void faultResume(Throwable cause) {
    if (actor == null && cause != null) {
      faultRecreate(cause); // creation failed: resuming means trying again
      return;
    }
    if (cause != null && extras != null) {
      extras.failed = false;
      extras.failedEnvelope = null;
    }
    mailbox.resume();
    forEachChild(c -> c.sendSystemMessage(new Resume(null)));
  }

  private void faultRecreate(Throwable cause) {
    if (state != ALIVE) {
      return;
    }
    Actor failedActor = actor;
    if (failedActor != null) {
      Envelope failedOn = extras == null ? null : extras.failedEnvelope;
      current = failedOn; // getSender() in preRestart is the failed message's sender (retry idiom)
      try {
        unstashAll();
        failedActor.preRestart(cause, Optional.ofNullable(failedOn == null ? null : failedOn.message()));
      } catch (Throwable t) {
        self.system.log.error(t, "preRestart of {} failed; restarting anyway", self.path());
      } finally {
        current = null;
      }
    }
    cancelReceiveTimeout();
    actor = null;
    behavior = null;
    if (extras != null) {
      extras.behaviorStack = null;
      extras.initialBehavior = null;
      extras.failedEnvelope = null;
    }
    if (hasStoppingChildren()) {
      extras().pendingRecreate = cause; // finish once the children stopped in preRestart are gone
    } else {
      finishRecreate(cause);
    }
  }

  private void finishRecreate(Throwable cause) {
    if (extras != null) {
      extras.failed = false;
    }
    mailbox.resume();
    try {
      newInstance();
      actor.postRestart(cause);
    } catch (Throwable t) {
      handleInvokeFailure(initFailure("exception during restart", t), null);
      return;
    }
    forEachChild(c -> c.sendSystemMessage(new Resume(cause)));
  }

  // =============================================================== children

  /**
   * Creates, registers and starts a child. Called on the actor thread, or on any thread for the
   * guardians.
   */
  ActorRef attachChild(Props props, String name, boolean internal) {
    if (props == null) {
      throw new NullPointerException("props");
    }
    Dispatcher dispatcher =
        props.dispatcher() == null
            ? self.system.dispatchers.defaultDispatcher()
            : self.system.dispatchers.lookup(props.dispatcher());
    MailboxType mailboxType =
        props.mailbox() == null ? self.system.defaultMailbox : self.system.dispatchers.mailboxType(props.mailbox());
    String childName;
    if (name == null) {
      childName = childrenForUpdate().nextName();
    } else {
      if (!ActorPath.isValidPathElement(name)) {
        throw new InvalidActorNameException(
            "invalid actor name ["
                + name
                + "]: use ASCII letters, digits and -_.*$+:@&=,!~'; (or %XX escapes), not empty");
      }
      if (name.startsWith("$") && !internal) {
        throw new InvalidActorNameException(
            "invalid actor name [" + name + "]: names starting with '$' are reserved");
      }
      childName = name;
    }
    if (state != ALIVE) {
      throw new IllegalStateException("cannot create child " + childName + ": " + self.path() + " is stopping");
    }
    ActorPath path = self.path().child(childName).withUid(newUid());
    Address target = deployTarget(props, path);
    Children c = childrenForUpdate();
    c.reserve(childName);
    if (target != null) {
      return attachRemoteChild(c, childName, props, path, target);
    }
    LocalActorRef child;
    RoutedActorRef routed = null; // props with a router: the child is a router cell behind this ref
    try {
      if (props.routerConfig() != null) {
        routed = new RoutedActorRef(self.system, path, self, props);
        child = routed.routerRef();
      } else {
        child =
            new LocalActorRef(
                self.system,
                path,
                ref -> new ActorCell(ref, self, props, dispatcher, mailboxType));
      }
      c.init(childName, routed != null ? routed : child);
    } catch (RuntimeException | Error e) {
      c.unreserve(childName);
      throw e;
    }
    if (routed != null) {
      routed.start();
    } else {
      child.cell().start();
    }
    if (state != ALIVE) {
      child.stop(); // we began stopping while it was being created
    }
    return routed != null ? routed : child;
  }

  /**
   * Where {@code props} put the child, if not here: its {@code Deploy}, else a {@code remote} key
   * of its deployment section. Checked before the name is taken, so a refused deployment (a local
   * provider cannot deploy elsewhere) fails {@code actorOf} and leaves nothing behind.
   */
  private Address deployTarget(Props props, ActorPath path) {
    LocalActorRefProvider local = self.system.provider().local();
    Address target = props.deploy().remoteAddress().orElse(null);
    if (target == null) {
      target = local.configuredDeployment(path);
    }
    if (target == null || target.equals(local.address())) {
      return null;
    }
    return target;
  }

  private ActorRef attachRemoteChild(Children c, String childName, Props props, ActorPath path, Address target) {
    InternalActorRef child;
    try {
      child = self.system.provider().actorOf(self, props, path, target);
      c.init(childName, child);
    } catch (RuntimeException | Error e) {
      c.unreserve(childName);
      throw e;
    }
    if (!child.isLocal()) {
      subscribeAddressTerminated(); // a remote child dies with its node
    }
    if (state != ALIVE) {
      child.stop();
    }
    return child;
  }

  private static long newUid() {
    long uid;
    do {
      uid = ThreadLocalRandom.current().nextLong();
    } while (uid == ActorPath.UNDEFINED_UID);
    return uid;
  }

  private Children childrenForUpdate() {
    Children c = children;
    if (c == null) {
      synchronized (this) { // once per parent; never on the message path
        c = children;
        if (c == null) {
          c = new Children();
          children = c;
        }
      }
    }
    return c;
  }

  private boolean childrenEmpty() {
    Children c = children;
    return c == null || c.isEmpty();
  }

  private boolean hasStoppingChildren() {
    Children c = children;
    return c != null && c.anyStopping();
  }

  private void forEachChild(java.util.function.Consumer<InternalActorRef> f) {
    Children c = children;
    if (c != null) {
      c.refs().forEach(f);
    }
  }

  /** @return the live child with this name (used by path lookup and selections), or null */
  InternalActorRef childByName(String name) {
    Children c = children;
    return c == null ? null : c.child(name);
  }

  List<InternalActorRef> childrenSnapshot() {
    Children c = children;
    return c == null ? List.of() : c.refs();
  }

  private void handleChildTerminated(ActorRef child) {
    Children c = children;
    if (c == null || !c.remove(child)) {
      return;
    }
    if (state == TERMINATING) {
      if (c.isEmpty()) {
        finishTerminate();
      }
    } else if (extras != null && extras.pendingRecreate != null && !hasStoppingChildren()) {
      Throwable cause = extras.pendingRecreate;
      extras.pendingRecreate = null;
      finishRecreate(cause);
    }
  }

  // =============================================================== death watch

  private DeathWatch watchState() {
    DeathWatch w = watch;
    if (w == null) {
      w = new DeathWatch();
      watch = w;
    }
    return w;
  }

  /**
   * The sizes of the death-watch state, for leak tests; read it only after the actor quiesced
   * (e.g. after it answered a message), as it belongs to the actor's thread.
   */
  int[] watchCounts() {
    DeathWatch w = watch;
    return w == null ? new int[3] : w.counts();
  }

  private void addWatcher(Watch w) {
    if (w.watchee() == self && w.watcher() != self) {
      watchState().addWatcher(w.watcher());
      if (!w.watcher().isLocal()) {
        subscribeAddressTerminated(); // forget the watcher when its node goes
      }
    }
  }

  /** From now on this actor hears when a node is gone; once per incarnation of the watch state. */
  private void subscribeAddressTerminated() {
    DeathWatch w = watchState();
    if (!w.addressSubscribed) {
      w.addressSubscribed = true;
      self.system.subscribeAddressTerminated(self);
    }
  }

  /**
   * A node is gone: its actors this one watched (or deployed there as children) are terminated
   * as far as this actor can tell, and its watchers there need no notification any more.
   */
  private void addressTerminated(Address address) {
    for (InternalActorRef child : childrenSnapshot()) {
      if (!child.isLocal() && child.path().address().equals(address)) {
        watchedActorTerminated(new DeathWatchNotification(child, false, true));
      }
    }
    if (watch != null) {
      for (ActorRef dead : watch.watchedAt(address)) {
        watchedActorTerminated(new DeathWatchNotification(dead, false, true));
      }
      watch.removeWatchersAt(address);
    }
  }

  private void watchedActorTerminated(DeathWatchNotification d) {
    ActorRef dead = d.actor();
    if (watch != null && watch.isWatching(dead)) {
      Object custom = watch.stopWatching(dead);
      if (state == ALIVE) {
        if (custom != null) {
          self.tell(custom, dead);
        } else {
          watch.queuedTerminated(dead);
          self.tell(
              new WatchedTerminated(new Terminated(dead, d.existenceConfirmed(), d.addressTerminated())),
              dead);
        }
      }
    }
    handleChildTerminated(dead);
  }

  @Override
  public ActorRef watch(ActorRef subject) {
    return watchWith(subject, null);
  }

  @Override
  public ActorRef watchWith(ActorRef subject, Object message) {
    InternalActorRef target = InternalActorRef.internal(subject);
    if (!target.equals(self) && watchState().startWatching(target, message)) {
      if (!target.isLocal()) {
        subscribeAddressTerminated(); // its node may go without a word
      }
      target.sendSystemMessage(new Watch(target, self));
    }
    return subject;
  }

  @Override
  public ActorRef unwatch(ActorRef subject) {
    InternalActorRef target = InternalActorRef.internal(subject);
    if (watch != null && watch.isWatching(target)) {
      watch.stopWatching(target);
      target.sendSystemMessage(new Unwatch(target, self));
    }
    if (watch != null) {
      watch.dropQueuedTerminated(target);
    }
    return subject;
  }

  // =============================================================== receive timeout

  @Override
  public void setReceiveTimeout(Duration timeout) {
    long nanos = timeout == null || timeout.isNegative() ? 0L : timeout.toNanos();
    cancelReceiveTimeout();
    if (nanos > 0) {
      Extras x = extras();
      x.receiveTimeoutNanos = nanos;
      x.lastActivityNanos = self.system.nanoTime();
      scheduleTimeoutCheck(x, nanos);
    }
  }

  @Override
  public Duration getReceiveTimeout() {
    return Duration.ofNanos(extras == null ? 0L : extras.receiveTimeoutNanos);
  }

  private void cancelReceiveTimeout() {
    Extras x = extras;
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

  private void scheduleTimeoutCheck(Extras x, long delayNanos) {
    ReceiveTimeoutTick tick = new ReceiveTimeoutTick(x.receiveTimeoutGeneration);
    x.receiveTimeoutTask =
        self.system.scheduler().scheduleOnce(
            Duration.ofNanos(delayNanos), () -> self.tell(tick, null), mailbox.dispatcher().executor());
  }

  /**
   * One timer per actor, not one per message: messages only record their time, and the tick
   * checks how long the actor has really been idle, re-arming itself for the remainder.
   */
  private void receiveTimeoutTick(ReceiveTimeoutTick tick) throws Exception {
    Extras x = extras;
    if (x == null || tick.generation() != x.receiveTimeoutGeneration || x.receiveTimeoutNanos == 0) {
      return;
    }
    long idle = self.system.nanoTime() - x.lastActivityNanos;
    if (idle >= x.receiveTimeoutNanos) {
      x.lastActivityNanos = self.system.nanoTime();
      scheduleTimeoutCheck(x, x.receiveTimeoutNanos);
      deliver(ReceiveTimeout.getInstance());
    } else {
      scheduleTimeoutCheck(x, x.receiveTimeoutNanos - idle);
    }
  }

  /**
   * A death-watch notification queued behind the dead actor's earlier messages. The wrapper tells
   * it apart from a {@code Terminated} that user code sends or forwards (an ordinary message):
   * only this one is dropped if the actor unwatched in the meantime.
   */
  record WatchedTerminated(Terminated terminated) {}

  /** The scheduler's nudge; not a user-visible message and never resets the timeout. */
  record ReceiveTimeoutTick(int generation) implements NotInfluenceReceiveTimeout {}

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
  public void stash() {
    Envelope e = current;
    if (e == null) {
      throw new IllegalStateException("stash() called outside message processing");
    }
    Extras x = extras();
    if (x.currentStashed) {
      throw new IllegalStateException("the current message was already stashed");
    }
    ArrayDeque<Envelope> s = x.stash;
    if (s == null) {
      s = new ArrayDeque<>();
      x.stash = s;
    }
    int capacity = self.system.settings.stashCapacity();
    if (capacity >= 0 && s.size() >= capacity) {
      throw new StashOverflowException(
          "stash of " + self.path() + " is full (capacity " + capacity + ")");
    }
    s.addLast(new Envelope(e.message(), e.sender()));
    x.currentStashed = true;
  }

  @Override
  public void unstash() {
    ArrayDeque<Envelope> s = extras == null ? null : extras.stash;
    if (s != null && !s.isEmpty()) {
      mailbox.prependAll(List.of(s.pollFirst()));
    }
  }

  @Override
  public void unstashAll() {
    ArrayDeque<Envelope> s = extras == null ? null : extras.stash;
    if (s != null && !s.isEmpty()) {
      mailbox.prependAll(s);
      s.clear();
    }
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
    InternalActorRef target = InternalActorRef.internal(subject);
    Children c = children;
    ChildStats s = c == null ? null : c.stats(target);
    if (s != null) {
      stopChild(s);
    } else {
      target.stop();
    }
  }

  @Override
  public void become(AbstractActor.Receive b) {
    become(b, true);
  }

  @Override
  public void become(AbstractActor.Receive b, boolean discardOld) {
    if (b == null) {
      throw new NullPointerException("behaviour");
    }
    Extras x = extras();
    if (x.behaviorStack == null) {
      x.behaviorStack = new ArrayDeque<>(4);
      x.initialBehavior = behavior; // no become yet in this incarnation: this is the initial one
    }
    if (discardOld && !x.behaviorStack.isEmpty()) {
      x.behaviorStack.pop();
    }
    x.behaviorStack.push(b);
    behavior = b;
  }

  @Override
  public void become(Procedure<Object> b) {
    become(AbstractActor.Receive.of(b), true);
  }

  @Override
  public void become(Procedure<Object> b, boolean discardOld) {
    become(AbstractActor.Receive.of(b), discardOld);
  }

  @Override
  public void unbecome() {
    ArrayDeque<AbstractActor.Receive> stack = extras == null ? null : extras.behaviorStack;
    if (stack == null) {
      return; // never became anything: already the initial behaviour
    }
    if (!stack.isEmpty()) {
      stack.pop();
    }
    AbstractActor.Receive top = stack.peek();
    behavior = top != null ? top : extras.initialBehavior;
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
}
