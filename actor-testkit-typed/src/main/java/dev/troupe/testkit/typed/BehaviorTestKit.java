package dev.troupe.testkit.typed;

import dev.troupe.actor.Cancellable;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.PostStop;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.StatusReply;
import dev.troupe.actor.typed.internal.Interpreter;
import dev.troupe.actor.typed.internal.InternalContext;
import dev.troupe.actor.typed.internal.InternalMessage;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.TimerScheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one behaviour synchronously, on the test's thread, with no actor system: {@link #run} hands
 * it a message and returns when it has been handled; what it did through its context is recorded as
 * {@link Effect}s; what it sent to itself waits in {@link #selfInbox()}, what it sent to a child in
 * {@link #childInbox(String)}. Children are not run (test their behaviours with their own kit).
 *
 * <p>The behaviour runs with the same interpreter as in an actor (setup, supervision, stash, timers'
 * bookkeeping), except what needs time: timers and {@code scheduleOnce} are only recorded, a
 * backoff restart does not happen, and {@code ask}/{@code pipeToSelf} deliver into the self inbox
 * when the reply or stage arrives ({@code runOne()} then handles it). Not thread-safe.
 *
 * @param <T> the type of message the behaviour accepts
 */
public final class BehaviorTestKit<T> {
  private final StubContext ctx;
  private final ArrayDeque<Effect> effects = new ArrayDeque<>();
  private final List<Object> unhandled = new ArrayList<>();
  private Behavior<T> current;

  private BehaviorTestKit(Behavior<T> initial, String name) {
    this.ctx = new StubContext(name);
    this.current = Interpreter.start(Objects.requireNonNull(initial, "initial"), ctx);
  }

  /**
   * Starts a behaviour (its setup runs now).
   *
   * @param initial the behaviour
   * @param <T> what it accepts
   * @return the kit
   */
  public static <T> BehaviorTestKit<T> create(Behavior<T> initial) {
    return new BehaviorTestKit<>(initial, "testkit");
  }

  /**
   * Starts a behaviour with a name for its self ref.
   *
   * @param initial the behaviour
   * @param name the name
   * @param <T> what it accepts
   * @return the kit
   */
  public static <T> BehaviorTestKit<T> create(Behavior<T> initial, String name) {
    return new BehaviorTestKit<>(initial, name);
  }

  /**
   * Hands the behaviour one message; exceptions it throws (and its supervision does not handle)
   * reach the test.
   *
   * @param message the message
   */
  public void run(T message) {
    checkAlive();
    Behavior<T> next = Interpreter.interpretMessage(current, ctx, message);
    if (Interpreter.isUnhandled(next)) {
      unhandled.add(message);
    }
    keep(next);
  }

  /** Handles the oldest message of the self inbox (e.g. an adapted or piped one). */
  public void runOne() {
    run(selfInbox().receiveMessage());
  }

  /**
   * Hands the behaviour a signal.
   *
   * @param signal the signal
   */
  public void signal(Signal signal) {
    checkAlive();
    keep(Interpreter.interpretSignal(current, ctx, signal));
  }

  private void keep(Behavior<T> next) {
    Behavior<T> b = Interpreter.canonicalize(next, current, ctx);
    if (!Interpreter.isAlive(b)) {
      Interpreter.interpretSignal(current, ctx, PostStop.instance());
    }
    current = b;
  }

  private void checkAlive() {
    if (!isAlive()) {
      throw new IllegalStateException("the behaviour has stopped");
    }
  }

  /** @return whether the behaviour has not stopped */
  public boolean isAlive() {
    return Interpreter.isAlive(current);
  }

  /** @return the behaviour that handles the next message */
  public Behavior<T> currentBehavior() {
    return current;
  }

  /** @return the self ref (its messages wait in {@link #selfInbox()}) */
  public ActorRef<T> getRef() {
    return ctx.self.getRef();
  }

  /** @return what the behaviour sent to itself */
  public TestInbox<T> selfInbox() {
    return ctx.self;
  }

  /**
   * @param name a child's name
   * @param <U> what it accepts
   * @return what was sent to that child
   * @throws IllegalArgumentException if no child of that name was spawned
   */
  @SuppressWarnings("unchecked")
  public <U> TestInbox<U> childInbox(String name) {
    TestInbox<?> inbox = ctx.children.get(name);
    if (inbox == null) {
      throw new IllegalArgumentException("no child named [" + name + "]; children: " + ctx.children.keySet());
    }
    return (TestInbox<U>) inbox;
  }

  /**
   * @return the oldest effect, removed
   * @throws AssertionError if there is none
   */
  public Effect getEffect() {
    Effect e = effects.poll();
    if (e == null) {
      throw new AssertionError("no effect");
    }
    return e;
  }

  /**
   * Asserts the oldest effect equals {@code expected}, and removes it.
   *
   * @param expected the effect
   */
  public void expectEffect(Effect expected) {
    Effect e = getEffect();
    if (!e.equals(expected)) {
      throw new AssertionError("expected effect " + expected + " but found " + e);
    }
  }

  /**
   * Asserts the oldest effect is of a class, and removes it.
   *
   * @param type the class
   * @param <E> its type
   * @return the effect
   */
  public <E extends Effect> E expectEffectClass(Class<E> type) {
    Effect e = getEffect();
    if (!type.isInstance(e)) {
      throw new AssertionError("expected an effect of " + type.getSimpleName() + " but found " + e);
    }
    return type.cast(e);
  }

  /** @return every effect not yet taken, oldest first, removed */
  public List<Effect> getAllEffects() {
    List<Effect> out = new ArrayList<>(effects);
    effects.clear();
    return out;
  }

  /** @return whether an effect waits */
  public boolean hasEffects() {
    return !effects.isEmpty();
  }

  /** @return the messages the behaviour left unhandled, oldest first */
  public List<Object> getAllUnhandled() {
    return List.copyOf(unhandled);
  }

  /** The context the behaviour runs with: it records effects and delivers into inboxes. */
  private final class StubContext implements ActorContext<T>, InternalContext<T> {
    final TestInbox<T> self;
    final Map<String, TestInbox<?>> children = new LinkedHashMap<>();
    final Set<Object> activeTimers = new HashSet<>();
    private Logger log = LoggerFactory.getLogger(BehaviorTestKit.class);
    private int anonymous;

    StubContext(String name) {
      this.self = TestInbox.create(name);
    }

    @Override
    public ActorRef<T> getSelf() {
      return self.getRef();
    }

    @Override
    public ActorSystem<Void> getSystem() {
      throw new UnsupportedOperationException("a BehaviorTestKit runs without an actor system; use ActorTestKit");
    }

    @Override
    public Logger getLog() {
      return log;
    }

    @Override
    public void setLoggerName(String name) {
      log = LoggerFactory.getLogger(name);
    }

    @Override
    public void setLoggerName(Class<?> clazz) {
      log = LoggerFactory.getLogger(clazz);
    }

    @Override
    public <U> ActorRef<U> spawn(Behavior<U> behavior, String name) {
      return spawn(behavior, name, Props.empty());
    }

    @Override
    public <U> ActorRef<U> spawn(Behavior<U> behavior, String name, Props props) {
      Objects.requireNonNull(behavior, "behavior");
      if (children.containsKey(name)) {
        throw new dev.troupe.actor.InvalidActorNameException("actor name [" + name + "] is not unique");
      }
      TestInbox<U> inbox = TestInbox.create(name);
      children.put(name, inbox);
      effects.add(new Effect.Spawned<>(behavior, name, props, inbox.getRef()));
      return inbox.getRef();
    }

    @Override
    public <U> ActorRef<U> spawnAnonymous(Behavior<U> behavior) {
      return spawnAnonymous(behavior, Props.empty());
    }

    @Override
    public <U> ActorRef<U> spawnAnonymous(Behavior<U> behavior, Props props) {
      String name = "$" + (++anonymous);
      TestInbox<U> inbox = TestInbox.create(name);
      children.put(name, inbox);
      effects.add(new Effect.SpawnedAnonymous<>(behavior, name, props, inbox.getRef()));
      return inbox.getRef();
    }

    private String nameOf(ActorRef<?> child) {
      for (Map.Entry<String, TestInbox<?>> e : children.entrySet()) {
        if (e.getValue().getRef().equals(child)) {
          return e.getKey();
        }
      }
      return null;
    }

    @Override
    public void stop(ActorRef<?> child) {
      String name = nameOf(child);
      if (name == null) {
        throw new IllegalArgumentException("only a child can be stopped by its parent's context: " + child);
      }
      children.remove(name);
      effects.add(new Effect.Stopped(name));
    }

    @Override
    public void watch(ActorRef<?> other) {
      effects.add(new Effect.Watched(other));
    }

    @Override
    public void watchWith(ActorRef<?> other, T message) {
      effects.add(new Effect.WatchedWith(other, message));
    }

    @Override
    public void unwatch(ActorRef<?> other) {
      effects.add(new Effect.Unwatched(other));
    }

    @Override
    public List<ActorRef<Void>> getChildren() {
      List<ActorRef<Void>> out = new ArrayList<>();
      children.values().forEach(i -> out.add(i.getRef().unsafeUpcast()));
      return out;
    }

    @Override
    public Optional<ActorRef<Void>> getChild(String name) {
      return Optional.ofNullable(children.get(name)).map(i -> i.getRef().unsafeUpcast());
    }

    @Override
    public void setReceiveTimeout(Duration timeout, T message) {
      effects.add(new Effect.ReceiveTimeoutSet(timeout, message));
    }

    @Override
    public void cancelReceiveTimeout() {
      effects.add(new Effect.ReceiveTimeoutCancelled());
    }

    @Override
    public <U> ActorRef<U> messageAdapter(Class<U> messageClass, Function<U, T> f) {
      effects.add(new Effect.MessageAdapter(messageClass, f));
      return TestInbox.<U>forwarding("adapter", u -> self.add(f.apply(u))).getRef();
    }

    @Override
    public <Req, Res> void ask(
        Class<Res> resClass,
        ActorRef<Req> target,
        Duration timeout,
        Function<ActorRef<Res>, Req> createRequest,
        BiFunction<Res, Throwable, T> applyToResponse) {
      TestInbox<Res> reply = TestInbox.forwarding("reply", r -> self.add(applyToResponse.apply(r, null)));
      target.tell(createRequest.apply(reply.getRef()));
    }

    @Override
    public <Req, Res> void askWithStatus(
        Class<Res> resClass,
        ActorRef<Req> target,
        Duration timeout,
        Function<ActorRef<StatusReply<Res>>, Req> createRequest,
        BiFunction<Res, Throwable, T> applyToResponse) {
      TestInbox<StatusReply<Res>> reply =
          TestInbox.forwarding(
              "reply",
              r -> self.add(r.isSuccess() ? applyToResponse.apply(r.getValue(), null) : applyToResponse.apply(null, r.getError())));
      target.tell(createRequest.apply(reply.getRef()));
    }

    @Override
    public <V> void pipeToSelf(CompletionStage<V> stage, BiFunction<V, Throwable, T> applyToResult) {
      stage.whenComplete((v, t) -> self.add(applyToResult.apply(v, t)));
    }

    @Override
    public <U> Cancellable scheduleOnce(Duration delay, ActorRef<U> target, U message) {
      effects.add(new Effect.Scheduled(delay, target, message));
      return NOT_SCHEDULED;
    }

    @Override
    public Executor getExecutionContext() {
      return Runnable::run;
    }

    @Override
    public TimerScheduler<T> timers() {
      return new TimerScheduler<>() {
        @Override
        public void startSingleTimer(Object key, T msg, Duration delay) {
          activeTimers.add(key);
          effects.add(new Effect.TimerScheduled(key, msg, delay, false));
        }

        @Override
        public void startTimerWithFixedDelay(Object key, T msg, Duration initialDelay, Duration delay) {
          activeTimers.add(key);
          effects.add(new Effect.TimerScheduled(key, msg, delay, true));
        }

        @Override
        public void startTimerAtFixedRate(Object key, T msg, Duration initialDelay, Duration interval) {
          activeTimers.add(key);
          effects.add(new Effect.TimerScheduled(key, msg, interval, true));
        }

        @Override
        public boolean isTimerActive(Object key) {
          return activeTimers.contains(key);
        }

        @Override
        public void cancel(Object key) {
          activeTimers.remove(key);
          effects.add(new Effect.TimerCancelled(key));
        }

        @Override
        public void cancelAll() {
          new ArrayList<>(activeTimers).forEach(this::cancel);
        }
      };
    }

    @Override
    public void cancelAllTimers() {
      timers().cancelAll();
    }

    @Override
    public Cancellable scheduleToSelf(Duration delay, InternalMessage message) {
      return NOT_SCHEDULED;
    }

    @Override
    public void unhandled(Object message) {
      unhandled.add(message);
    }

    @Override
    public void deadLetter(Object message) {
      unhandled.add(message);
    }
  }

  private static final Cancellable NOT_SCHEDULED =
      new Cancellable() {
        @Override
        public boolean cancel() {
          return true;
        }

        @Override
        public boolean isCancelled() {
          return true;
        }
      };
}
