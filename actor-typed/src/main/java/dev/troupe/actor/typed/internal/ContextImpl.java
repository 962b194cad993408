package dev.troupe.actor.typed.internal;

import dev.troupe.actor.Cancellable;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.typed.StatusReply;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.TimerScheduler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The context of a typed actor: a view of its classic cell's context. Everything here runs on the
 * actor's thread except {@link #childFailed}, which a failing child calls on its own thread.
 *
 * <p>It holds three fields, as every idle typed actor has one: its actor, its typed self ref (made
 * on first use) and a link that is first the parent (what the actor needs only when it fails or
 * stops) and becomes the {@link Extras} the first time anything rarer is needed: timers, message
 * adapters, watches, a logger, a receive timeout, the causes of failed children, the spawn cache.
 * A failing child may make the extras of its parent from its own thread, so the link changes only
 * by compare-and-set.
 *
 * @param <T> the type of message the actor accepts
 */
public final class ContextImpl<T> implements ActorContext<T>, InternalContext<T> {
  /** The link of a typed system's guardian: no parent, and its failure terminates the system. */
  static final Object GUARDIAN = new Object() {
    @Override
    public String toString() {
      return "guardian";
    }
  };

  /**
   * The link of an actor started by a typed system's {@code systemActorOf}: a classic parent (the
   * {@code /system} guardian), and an unhandled failure stops it.
   */
  static final Object SYSTEM_ACTOR = new Object() {
    @Override
    public String toString() {
      return "system actor";
    }
  };

  private static final VarHandle LINK;

  static {
    try {
      LINK = MethodHandles.lookup().findVarHandle(ContextImpl.class, "link", Object.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final TypedActor<T> actor;
  private ActorRefAdapter<T> self;
  /**
   * The parent's context, {@link #GUARDIAN}, {@link #SYSTEM_ACTOR} or null; or the {@link Extras}
   * that hold it.
   */
  @SuppressWarnings("unused") // read and changed through LINK
  private Object link;

  ContextImpl(TypedActor<T> actor, Object parentLink) {
    this.actor = actor;
    this.link = parentLink; // the cell publishes the actor and its context to other threads
  }

  /**
   * What a typed actor needs less often than per message; made on first use.
   *
   * @param <T> the type of message the actor accepts
   */
  private static final class Extras<T> {
    /** The parent's context, {@link #GUARDIAN}, {@link #SYSTEM_ACTOR} or null. */
    final Object parent;
    T receiveTimeoutMessage;
    Logger log;
    TimerSchedulerImpl<T> timers;
    ActorRefAdapter<Object> adapterRef;
    List<AdapterEntry<T>> adapters;
    /** Actors watched with {@link #watch} (not watchWith): those that give a signal. */
    Set<dev.troupe.actor.ActorRef> watching;
    /** Causes of children that failed, reported by them, until their Terminated; guarded by the context. */
    Map<dev.troupe.actor.ActorRef, Throwable> failures;
    /** The behaviour that returned {@code stopped}: it gets the {@code PostStop} signal. */
    Behavior<T> beforeStop;
    /** The last spawn's behaviour and props, and the classic props made for them. */
    Behavior<?> spawnedBehavior;
    Props spawnedProps;
    dev.troupe.actor.Props spawnedClassic;

    Extras(Object parent) {
      this.parent = parent;
    }
  }

  /** @return the extras, made now if there are none yet (any thread) */
  @SuppressWarnings("unchecked")
  private Extras<T> extras() {
    Object l = LINK.getAcquire(this);
    if (l instanceof Extras<?> x) {
      return (Extras<T>) x;
    }
    Extras<T> made = new Extras<>(l);
    Object witness = LINK.compareAndExchange(this, l, made);
    return witness == l ? made : (Extras<T>) witness;
  }

  /** @return the extras, or null if none were needed yet */
  @SuppressWarnings("unchecked")
  private Extras<T> extrasIfAny() {
    return LINK.getAcquire(this) instanceof Extras<?> x ? (Extras<T>) x : null;
  }

  private Object parentLink() {
    Object l = LINK.getAcquire(this);
    return l instanceof Extras<?> x ? x.parent : l;
  }

  /** @return the typed parent's context, or null (a classic parent, or the guardian) */
  ContextImpl<?> typedParent() {
    return parentLink() instanceof ContextImpl<?> p ? p : null;
  }

  /** @return whether this is a typed system's guardian */
  boolean isGuardian() {
    return parentLink() == GUARDIAN;
  }

  /** @return whether this actor was started by {@code systemActorOf} */
  boolean isSystemActor() {
    return parentLink() == SYSTEM_ACTOR;
  }

  /** @param b the behaviour that returned {@code stopped}, to get {@code PostStop} */
  void beforeStop(Behavior<T> b) {
    extras().beforeStop = b;
  }

  /** @return the behaviour that returned {@code stopped}, or null */
  Behavior<T> beforeStop() {
    Extras<T> x = extrasIfAny();
    return x == null ? null : x.beforeStop;
  }

  /** @return the classic context of the cell */
  public dev.troupe.actor.ActorContext classic() {
    return actor.getContext();
  }

  private record AdapterEntry<T>(Class<?> type, Function<Object, T> f) {}

  @Override
  public ActorRef<T> getSelf() {
    ActorRefAdapter<T> s = self;
    if (s == null) {
      s = new ActorRefAdapter<>(actor.getSelf()); // equal to any other view: a race is harmless
      self = s;
    }
    return s;
  }

  @Override
  public ActorSystem<Void> getSystem() {
    return TypedSystem.of(classic().getSystem());
  }

  @Override
  public Logger getLog() {
    Extras<T> x = extras();
    Logger l = x.log;
    if (l == null) {
      l = LoggerFactory.getLogger(actor.loggerClass());
      x.log = l;
    }
    return l;
  }

  @Override
  public void setLoggerName(String name) {
    extras().log = LoggerFactory.getLogger(Objects.requireNonNull(name, "name"));
  }

  @Override
  public void setLoggerName(Class<?> clazz) {
    extras().log = LoggerFactory.getLogger(Objects.requireNonNull(clazz, "clazz"));
  }

  @Override
  public <U> ActorRef<U> spawn(Behavior<U> behavior, String name) {
    return spawn(behavior, name, Props.empty());
  }

  @Override
  public <U> ActorRef<U> spawn(Behavior<U> behavior, String name, Props props) {
    Objects.requireNonNull(name, "name");
    return new ActorRefAdapter<>(classic().actorOf(childProps(behavior, props), name));
  }

  @Override
  public <U> ActorRef<U> spawnAnonymous(Behavior<U> behavior) {
    return spawnAnonymous(behavior, Props.empty());
  }

  @Override
  public <U> ActorRef<U> spawnAnonymous(Behavior<U> behavior, Props props) {
    return new ActorRefAdapter<>(classic().actorOf(childProps(behavior, props)));
  }

  /**
   * The classic props of a child: those of the last spawn again when the behaviour (the same
   * object) and the props are the same, so that the many children of one behaviour share them (a
   * cell keeps its props for its whole life).
   */
  dev.troupe.actor.Props childProps(Behavior<?> behavior, Props props) {
    Objects.requireNonNull(behavior, "behavior");
    Objects.requireNonNull(props, "props");
    Extras<T> x = extras();
    if (x.spawnedBehavior != behavior || !props.equals(x.spawnedProps)) {
      x.spawnedClassic = TypedActor.props(behavior, this, false, props);
      x.spawnedBehavior = behavior;
      x.spawnedProps = props;
    }
    return x.spawnedClassic;
  }

  @Override
  public void stop(ActorRef<?> child) {
    dev.troupe.actor.ActorRef c = ActorRefAdapter.toClassic(child);
    boolean mine = classic().findChild(c.path().name()).filter(c::equals).isPresent();
    if (!mine) {
      if (c.path().parent().equals(classic().getSelf().path())) {
        return; // a child that has already stopped
      }
      throw new IllegalArgumentException(
          "only a child can be stopped by its parent's context: " + child + " is not a child of " + getSelf()
              + " (send it a message that makes it stop)");
    }
    classic().stop(c);
  }

  @Override
  public void watch(ActorRef<?> other) {
    dev.troupe.actor.ActorRef c = ActorRefAdapter.toClassic(other);
    Extras<T> x = extras();
    if (x.watching == null) {
      x.watching = new HashSet<>();
    }
    x.watching.add(c);
    classic().watch(c);
  }

  @Override
  public void watchWith(ActorRef<?> other, T message) {
    Objects.requireNonNull(message, "message");
    dev.troupe.actor.ActorRef c = ActorRefAdapter.toClassic(other);
    forgetWatching(c);
    classic().watchWith(c, message);
  }

  @Override
  public void unwatch(ActorRef<?> other) {
    dev.troupe.actor.ActorRef c = ActorRefAdapter.toClassic(other);
    forgetWatching(c);
    classic().unwatch(c);
  }

  private void forgetWatching(dev.troupe.actor.ActorRef c) {
    Extras<T> x = extrasIfAny();
    if (x != null && x.watching != null) {
      x.watching.remove(c);
    }
  }

  @Override
  public List<ActorRef<Void>> getChildren() {
    List<ActorRef<Void>> out = new ArrayList<>();
    for (dev.troupe.actor.ActorRef c : classic().getChildren()) {
      out.add(new ActorRefAdapter<>(c));
    }
    return out;
  }

  @Override
  public Optional<ActorRef<Void>> getChild(String name) {
    return classic().findChild(name).map(ActorRefAdapter::new);
  }

  @Override
  public void setReceiveTimeout(Duration timeout, T message) {
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(message, "message");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("receive timeout must be positive, was " + timeout);
    }
    extras().receiveTimeoutMessage = message;
    classic().setReceiveTimeout(timeout);
  }

  @Override
  public void cancelReceiveTimeout() {
    Extras<T> x = extrasIfAny();
    if (x != null) {
      x.receiveTimeoutMessage = null;
    }
    classic().setReceiveTimeout(Duration.ZERO);
  }

  T receiveTimeoutMessage() {
    Extras<T> x = extrasIfAny();
    return x == null ? null : x.receiveTimeoutMessage;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <U> ActorRef<U> messageAdapter(Class<U> messageClass, Function<U, T> f) {
    Objects.requireNonNull(messageClass, "messageClass");
    Objects.requireNonNull(f, "f");
    Extras<T> x = extras();
    if (x.adapters == null) {
      x.adapters = new ArrayList<>(2);
    }
    x.adapters.removeIf(e -> e.type() == messageClass);
    x.adapters.add(new AdapterEntry<>(messageClass, (Function<Object, T>) f));
    if (x.adapterRef == null) {
      x.adapterRef = new ActorRefAdapter<>(new MessageAdapterRef(actor.getSelf()));
    }
    return x.adapterRef.unsafeUpcast();
  }

  /**
   * The actor stopped: its message adapter leaves the system's event stream. The stream drops a
   * stopped actor by itself, but cannot see that an adapter's actor is gone; an adapter left there
   * would turn every event it gets into a dead letter (and one subscribed to dead letters, each dead
   * letter into another).
   */
  void stopped() {
    Extras<T> x = extrasIfAny();
    if (x != null && x.adapterRef != null) {
      actor.getContext().getSystem().eventStream().unsubscribe(x.adapterRef.classic());
    }
  }

  /** Runs an adapted message's function (newest registration first) and handles the result. */
  void adapt(Object message) {
    Extras<T> x = extrasIfAny();
    List<AdapterEntry<T>> list = x == null ? null : x.adapters;
    if (list != null) {
      for (int i = list.size() - 1; i >= 0; i--) {
        AdapterEntry<T> e = list.get(i);
        if (e.type().isInstance(message)) {
          actor.handle(e.f().apply(message));
          return;
        }
      }
    }
    unhandled(message);
  }

  @Override
  public <Req, Res> void ask(
      Class<Res> resClass,
      ActorRef<Req> target,
      Duration timeout,
      Function<ActorRef<Res>, Req> createRequest,
      BiFunction<Res, Throwable, T> applyToResponse) {
    Objects.requireNonNull(resClass, "resClass");
    pipeReply(resClass, target, AskPattern.ask(target, createRequest, timeout, classic().getSystem().scheduler()), applyToResponse);
  }

  @Override
  public <Req, Res> void askWithStatus(
      Class<Res> resClass,
      ActorRef<Req> target,
      Duration timeout,
      Function<ActorRef<StatusReply<Res>>, Req> createRequest,
      BiFunction<Res, Throwable, T> applyToResponse) {
    Objects.requireNonNull(resClass, "resClass");
    pipeReply(
        resClass, target, AskPattern.askWithStatus(target, createRequest, timeout, classic().getSystem().scheduler()), applyToResponse);
  }

  /** The reply, checked to be a {@code resClass}, piped back as a message. */
  private <Res> void pipeReply(
      Class<Res> resClass, ActorRef<?> target, CompletionStage<Res> reply, BiFunction<Res, Throwable, T> applyToResponse) {
    pipeToSelf(reply.thenApply(r -> checkedCast(resClass, r, target)), applyToResponse);
  }

  private static <Res> Res checkedCast(Class<Res> resClass, Object reply, ActorRef<?> target) {
    if (reply != null && !resClass.isInstance(reply)) {
      throw new ClassCastException(
          target + " replied with a " + reply.getClass().getName() + ", not a " + resClass.getName());
    }
    return resClass.cast(reply);
  }

  @Override
  public <V> void pipeToSelf(CompletionStage<V> stage, BiFunction<V, Throwable, T> applyToResult) {
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(applyToResult, "applyToResult");
    dev.troupe.actor.ActorRef me = classic().getSelf();
    stage.whenComplete((v, t) -> me.tell(new PipedResult<>(v, unwrap(t), applyToResult), null));
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }

  /** A stage's outcome on its way back into the actor, where the function runs. */
  private static final class PipedResult<V, T> extends InternalMessage {
    private final V value;
    private final Throwable failure;
    private final BiFunction<V, Throwable, T> f;

    PipedResult(V value, Throwable failure, BiFunction<V, Throwable, T> f) {
      this.value = value;
      this.failure = failure;
      this.f = f;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void deliver(TypedActor<?> actor) {
      ((TypedActor<T>) actor).handle(f.apply(value, failure));
    }

    @Override
    public String toString() {
      return "PipedResult(" + (failure != null ? failure : value) + ")";
    }
  }

  @Override
  public <U> Cancellable scheduleOnce(Duration delay, ActorRef<U> target, U message) {
    Objects.requireNonNull(message, "message");
    return classic().getSystem().scheduler()
        .scheduleOnce(delay, ActorRefAdapter.toClassic(target), message, classic().dispatcher(), null);
  }

  @Override
  public Executor getExecutionContext() {
    return classic().dispatcher();
  }

  // ------------------------------------------------------------------ InternalContext

  @Override
  public TimerScheduler<T> timers() {
    Extras<T> x = extras();
    TimerSchedulerImpl<T> t = x.timers;
    if (t == null) {
      t = new TimerSchedulerImpl<>(actor.getTimers());
      x.timers = t;
    }
    return t;
  }

  @Override
  public void cancelAllTimers() {
    Extras<T> x = extrasIfAny();
    if (x != null && x.timers != null) {
      x.timers.cancelAll();
    }
  }

  @Override
  public Cancellable scheduleToSelf(Duration delay, InternalMessage message) {
    return classic().getSystem().scheduler()
        .scheduleOnce(delay, classic().getSelf(), message, classic().dispatcher(), null);
  }

  @Override
  public void unhandled(Object message) {
    actor.unhandled(message);
  }

  @Override
  public void deadLetter(Object message) {
    classic().getSystem().deadLetters().tell(message, classic().getSelf());
  }

  // ------------------------------------------------------------------ failures of children

  /** Called by a child, on its thread, just before it fails. */
  void childFailed(dev.troupe.actor.ActorRef child, Throwable cause) {
    Extras<T> x = extras();
    synchronized (this) {
      if (x.failures == null) {
        x.failures = new HashMap<>();
      }
      x.failures.put(child, cause);
    }
  }

  /** In the supervisor strategy's decider: forgets failures of children nobody will ask about. */
  void forgetUnwatchedFailures() {
    Extras<T> x = extrasIfAny();
    if (x == null) {
      return; // no child reported a failure
    }
    Set<dev.troupe.actor.ActorRef> w = x.watching;
    synchronized (this) {
      if (x.failures != null) {
        x.failures.keySet().removeIf(c -> w == null || !w.contains(c));
      }
    }
  }

  /**
   * A watched actor terminated.
   *
   * @return the cause if it was a child that failed, else null
   */
  Throwable terminated(dev.troupe.actor.ActorRef ref) {
    Extras<T> x = extrasIfAny();
    if (x == null) {
      return null;
    }
    if (x.watching != null) {
      x.watching.remove(ref);
    }
    synchronized (this) {
      return x.failures == null ? null : x.failures.remove(ref);
    }
  }

  @Override
  public String toString() {
    return "ActorContext(" + actor.getSelf() + ")";
  }
}
