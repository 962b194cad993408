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
 * @param <T> the type of message the actor accepts
 */
public final class ContextImpl<T> implements ActorContext<T>, InternalContext<T> {
  private final TypedActor<T> actor;
  private final dev.troupe.actor.ActorContext classic;
  private final ActorRefAdapter<T> self;
  private T receiveTimeoutMessage;
  private Logger log;
  private TimerSchedulerImpl<T> timers;
  private ActorRefAdapter<Object> adapterRef;
  private List<AdapterEntry<T>> adapters;
  /** Actors watched with {@link #watch} (not watchWith): those that give a signal. */
  private Set<dev.troupe.actor.ActorRef> watching;
  /** Causes of children that failed, reported by them, until their Terminated; guarded by this. */
  private Map<dev.troupe.actor.ActorRef, Throwable> failures;

  ContextImpl(TypedActor<T> actor) {
    this.actor = actor;
    this.classic = actor.getContext();
    this.self = new ActorRefAdapter<>(classic.getSelf());
  }

  /** @return the classic context of the cell */
  public dev.troupe.actor.ActorContext classic() {
    return classic;
  }

  private record AdapterEntry<T>(Class<?> type, Function<Object, T> f) {}

  @Override
  public ActorRef<T> getSelf() {
    return self;
  }

  @Override
  public ActorSystem<Void> getSystem() {
    return TypedSystem.of(classic.getSystem());
  }

  @Override
  public Logger getLog() {
    Logger l = log;
    if (l == null) {
      l = LoggerFactory.getLogger(actor.loggerClass());
      log = l;
    }
    return l;
  }

  @Override
  public void setLoggerName(String name) {
    log = LoggerFactory.getLogger(Objects.requireNonNull(name, "name"));
  }

  @Override
  public void setLoggerName(Class<?> clazz) {
    log = LoggerFactory.getLogger(Objects.requireNonNull(clazz, "clazz"));
  }

  @Override
  public <U> ActorRef<U> spawn(Behavior<U> behavior, String name) {
    return spawn(behavior, name, Props.empty());
  }

  @Override
  public <U> ActorRef<U> spawn(Behavior<U> behavior, String name, Props props) {
    Objects.requireNonNull(name, "name");
    return new ActorRefAdapter<>(classic.actorOf(TypedActor.props(behavior, this, false, props), name));
  }

  @Override
  public <U> ActorRef<U> spawnAnonymous(Behavior<U> behavior) {
    return spawnAnonymous(behavior, Props.empty());
  }

  @Override
  public <U> ActorRef<U> spawnAnonymous(Behavior<U> behavior, Props props) {
    return new ActorRefAdapter<>(classic.actorOf(TypedActor.props(behavior, this, false, props)));
  }

  @Override
  public void stop(ActorRef<?> child) {
    dev.troupe.actor.ActorRef c = ActorRefAdapter.toClassic(child);
    boolean mine = classic.findChild(c.path().name()).filter(c::equals).isPresent();
    if (!mine) {
      if (c.path().parent().equals(classic.getSelf().path())) {
        return; // a child that has already stopped
      }
      throw new IllegalArgumentException(
          "only a child can be stopped by its parent's context: " + child + " is not a child of " + self
              + " (send it a message that makes it stop)");
    }
    classic.stop(c);
  }

  @Override
  public void watch(ActorRef<?> other) {
    dev.troupe.actor.ActorRef c = ActorRefAdapter.toClassic(other);
    if (watching == null) {
      watching = new HashSet<>();
    }
    watching.add(c);
    classic.watch(c);
  }

  @Override
  public void watchWith(ActorRef<?> other, T message) {
    Objects.requireNonNull(message, "message");
    dev.troupe.actor.ActorRef c = ActorRefAdapter.toClassic(other);
    if (watching != null) {
      watching.remove(c);
    }
    classic.watchWith(c, message);
  }

  @Override
  public void unwatch(ActorRef<?> other) {
    dev.troupe.actor.ActorRef c = ActorRefAdapter.toClassic(other);
    if (watching != null) {
      watching.remove(c);
    }
    classic.unwatch(c);
  }

  @Override
  public List<ActorRef<Void>> getChildren() {
    List<ActorRef<Void>> out = new ArrayList<>();
    for (dev.troupe.actor.ActorRef c : classic.getChildren()) {
      out.add(new ActorRefAdapter<>(c));
    }
    return out;
  }

  @Override
  public Optional<ActorRef<Void>> getChild(String name) {
    return classic.findChild(name).map(ActorRefAdapter::new);
  }

  @Override
  public void setReceiveTimeout(Duration timeout, T message) {
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(message, "message");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("receive timeout must be positive, was " + timeout);
    }
    receiveTimeoutMessage = message;
    classic.setReceiveTimeout(timeout);
  }

  @Override
  public void cancelReceiveTimeout() {
    receiveTimeoutMessage = null;
    classic.setReceiveTimeout(Duration.ZERO);
  }

  T receiveTimeoutMessage() {
    return receiveTimeoutMessage;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <U> ActorRef<U> messageAdapter(Class<U> messageClass, Function<U, T> f) {
    Objects.requireNonNull(messageClass, "messageClass");
    Objects.requireNonNull(f, "f");
    if (adapters == null) {
      adapters = new ArrayList<>(2);
    }
    adapters.removeIf(e -> e.type() == messageClass);
    adapters.add(new AdapterEntry<>(messageClass, (Function<Object, T>) f));
    if (adapterRef == null) {
      adapterRef = new ActorRefAdapter<>(new MessageAdapterRef(classic.getSelf()));
    }
    return adapterRef.unsafeUpcast();
  }

  /** Runs an adapted message's function (newest registration first) and handles the result. */
  void adapt(Object message) {
    List<AdapterEntry<T>> list = adapters;
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
    pipeReply(resClass, target, AskPattern.ask(target, createRequest, timeout, classic.getSystem().scheduler()), applyToResponse);
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
        resClass, target, AskPattern.askWithStatus(target, createRequest, timeout, classic.getSystem().scheduler()), applyToResponse);
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
    dev.troupe.actor.ActorRef me = classic.getSelf();
    stage.whenComplete((v, t) -> me.tell(new PipedResult<>(v, unwrap(t), applyToResult), null));
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }

  /** A stage's outcome on its way back into the actor, where the function runs. */
  private record PipedResult<V, T>(V value, Throwable failure, BiFunction<V, Throwable, T> f)
      implements InternalMessage {
    @Override
    @SuppressWarnings("unchecked")
    public void deliver(TypedActor<?> actor) {
      ((TypedActor<T>) actor).handle(f.apply(value, failure));
    }
  }

  @Override
  public <U> Cancellable scheduleOnce(Duration delay, ActorRef<U> target, U message) {
    Objects.requireNonNull(message, "message");
    return classic.getSystem().scheduler()
        .scheduleOnce(delay, ActorRefAdapter.toClassic(target), message, classic.dispatcher(), null);
  }

  @Override
  public Executor getExecutionContext() {
    return classic.dispatcher();
  }

  // ------------------------------------------------------------------ InternalContext

  @Override
  public TimerScheduler<T> timers() {
    TimerSchedulerImpl<T> t = timers;
    if (t == null) {
      t = new TimerSchedulerImpl<>(actor.getTimers());
      timers = t;
    }
    return t;
  }

  @Override
  public void cancelAllTimers() {
    if (timers != null) {
      timers.cancelAll();
    }
  }

  @Override
  public Cancellable scheduleToSelf(Duration delay, InternalMessage message) {
    return classic.getSystem().scheduler()
        .scheduleOnce(delay, classic.getSelf(), message, classic.dispatcher(), null);
  }

  @Override
  public void unhandled(Object message) {
    actor.unhandled(message);
  }

  @Override
  public void deadLetter(Object message) {
    classic.getSystem().deadLetters().tell(message, classic.getSelf());
  }

  // ------------------------------------------------------------------ failures of children

  /** Called by a child, on its thread, just before it fails. */
  synchronized void childFailed(dev.troupe.actor.ActorRef child, Throwable cause) {
    if (failures == null) {
      failures = new HashMap<>();
    }
    failures.put(child, cause);
  }

  /** In the supervisor strategy's decider: forgets failures of children nobody will ask about. */
  void forgetUnwatchedFailures() {
    Set<dev.troupe.actor.ActorRef> w = watching;
    synchronized (this) {
      if (failures != null) {
        failures.keySet().removeIf(c -> w == null || !w.contains(c));
      }
    }
  }

  /**
   * A watched actor terminated.
   *
   * @return the cause if it was a child that failed, else null
   */
  Throwable terminated(dev.troupe.actor.ActorRef ref) {
    if (watching != null) {
      watching.remove(ref);
    }
    synchronized (this) {
      return failures == null ? null : failures.remove(ref);
    }
  }

  @Override
  public String toString() {
    return "ActorContext(" + self + ")";
  }
}
