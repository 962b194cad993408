package dev.troupe.actor;

import dev.troupe.actor.FSMStateFunctionBuilder.EventCase;
import dev.troupe.actor.FSMStopBuilder.StopCase;
import dev.troupe.actor.FSMTransitionHandlerBuilder.TransitionCase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A finite-state machine actor, with the Java names of Pekko's classic {@code AbstractFSM}. The
 * actor is in one named state ({@code S}) with data ({@code D}); each message is an event that the
 * state's cases turn into the next state. Configure it in the constructor (or an instance
 * initializer), then call {@link #initialize()}:
 *
 * <pre>{@code
 * public final class Door extends AbstractFSM<DoorState, Integer> {
 *   {
 *     startWith(DoorState.CLOSED, 0);
 *     when(DoorState.CLOSED,
 *         matchEventEquals("open", (e, opened) -> goTo(DoorState.OPEN).using(opened + 1)));
 *     when(DoorState.OPEN, Duration.ofSeconds(5),
 *         matchEventEquals("close", (e, n) -> goTo(DoorState.CLOSED))
 *             .eventEquals(StateTimeout(), (e, n) -> goTo(DoorState.CLOSED)));
 *     onTransition(matchState(DoorState.OPEN, DoorState.CLOSED, () -> log().info("closed")));
 *     initialize();
 *   }
 * }
 * }</pre>
 *
 * <p>How an event is handled: the cases of the current state are tried in order (a state given to
 * {@code when} several times has all its cases, in that order), then those of {@link
 * #whenUnhandled}; an event nothing matches is logged as a warning, published as {@link
 * UnhandledMessage} and the FSM stays. The returned {@link FSM.State} is then applied: its replies
 * go to the sender, then, when it was made by {@link #goTo} (even to the current state) or names
 * another state, the transition handlers run and subscribers get a {@link FSM.Transition}; {@link
 * #stay()} runs none. Finally the state timeout is armed: the one set with {@link
 * FSM.State#forMax}, else the state's own.
 *
 * <p>State timeouts: every event the FSM handles (timer messages included; transition
 * subscriptions excepted) cancels the pending state timeout, so {@link FSM.StateTimeout} arrives
 * only after the timeout passed without events in that state, and a timeout of a state that was
 * left, or re-armed, is never delivered.
 *
 * <p>Stopping: a state made by {@link #stop()} runs the {@link #onTermination} handler with the
 * reason, state and data, then stops the actor. Stopped from outside, or restarted, the FSM runs
 * that handler with {@link FSM.Shutdown} in {@link #postStop()}. Exceptions from handlers are not
 * caught: they go to the supervisor like any actor's, and a restarted FSM starts afresh from its
 * constructor.
 *
 * <p>Like every actor, all of this must only be used on the actor's own thread.
 *
 * @param <S> the state-name type; compared with {@code equals}
 * @param <D> the state-data type
 */
public abstract non-sealed class AbstractFSM<S, D> extends FSMMatchers<S, D> implements FSM {

  /** The state-timeout timer's key and message: private, so no user timer or message collides. */
  private static final Object STATE_TIMER =
      new Object() {
        @Override
        public String toString() {
          return "AbstractFSM.StateTimer";
        }
      };

  private static final EventCase[] NO_EVENT_CASES = new EventCase[0];
  private static final StopCase[] NO_STOP_CASES = new StopCase[0];

  /** A subscriber stopped (the message its watch was given). */
  private record ListenerTerminated(ActorRef actorRef) {}

  /** The cases and default timeout of one state; kept and extended in place. */
  private static final class StateEntry {
    EventCase[] cases; // null: only a timeout was set, the state was not registered with when
    Duration timeout;
  }

  private final Map<Object, StateEntry> states = new HashMap<>();
  private EventCase[] unhandledCases = NO_EVENT_CASES;
  private TransitionCase[][] transitionHandlers = new TransitionCase[0][];
  private StopCase[] stopCases = NO_STOP_CASES;

  private State<S, D> currentState;
  private StateEntry currentEntry; // null until initialize()
  private State<S, D> nextState; // only while transition handlers run
  private State<S, D> stayCache; // stay() for the current name and data, reused while they last
  private boolean stateTimerPending;
  private List<ActorRef> listeners; // transition subscribers, created on the first

  /** For subclasses, which configure the machine in their constructor. */
  protected AbstractFSM() {}

  // =============================================================== configuration

  /**
   * Sets the initial state; call it before {@link #initialize()}.
   *
   * @param stateName the initial state's name
   * @param stateData the initial data
   */
  public final void startWith(S stateName, D stateData) {
    startWith(stateName, stateData, null);
  }

  /**
   * Sets the initial state, with a state timeout for its first entry.
   *
   * @param stateName the initial state's name
   * @param stateData the initial data
   * @param timeout the timeout of the first entry; {@code null} for the state's own timeout
   */
  public final void startWith(S stateName, D stateData, Duration timeout) {
    Objects.requireNonNull(stateName, "stateName");
    State<S, D> s = State.of(stateName, stateData, true);
    currentState = timeout == null ? s : s.forMax(timeout);
    stayCache = null;
  }

  /**
   * Adds cases to a state. A state given several times keeps all its cases, earlier ones first.
   *
   * @param stateName the state's name
   * @param stateFunction the cases
   */
  public final void when(S stateName, FSMStateFunctionBuilder<S, D> stateFunction) {
    when(stateName, null, stateFunction);
  }

  /**
   * Adds cases to a state and sets its timeout: entering or staying in the state arms it, and
   * {@link FSM.StateTimeout} arrives if no event comes in that time.
   *
   * @param stateName the state's name
   * @param stateTimeout the state's timeout; {@code null} keeps the one it had (none at first)
   * @param stateFunction the cases
   */
  public final void when(
      S stateName, Duration stateTimeout, FSMStateFunctionBuilder<S, D> stateFunction) {
    Objects.requireNonNull(stateName, "stateName");
    EventCase[] added = stateFunction.cases();
    StateEntry e = states.computeIfAbsent(stateName, k -> new StateEntry());
    e.cases = e.cases == null ? added : concat(e.cases, added);
    if (stateTimeout != null) {
      e.timeout = nonNegative(stateTimeout);
    }
  }

  /**
   * Sets (or, with {@code null}, removes) the timeout of a state; it applies from the next entry.
   *
   * @param stateName the state's name
   * @param timeout the timeout, {@code null} for none
   */
  public final void setStateTimeout(S stateName, Duration timeout) {
    Objects.requireNonNull(stateName, "stateName");
    states.computeIfAbsent(stateName, k -> new StateEntry()).timeout =
        timeout == null ? null : nonNegative(timeout);
  }

  /**
   * Sets the cases tried when those of the current state match nothing; replaces earlier ones.
   *
   * @param stateFunction the cases
   */
  public final void whenUnhandled(FSMStateFunctionBuilder<S, D> stateFunction) {
    unhandledCases = stateFunction.cases();
  }

  /**
   * Adds a transition handler: on each transition its first matching case runs. Every handler
   * added is consulted.
   *
   * @param handler the cases
   */
  public final void onTransition(FSMTransitionHandlerBuilder<S> handler) {
    TransitionCase[][] all = Arrays.copyOf(transitionHandlers, transitionHandlers.length + 1);
    all[transitionHandlers.length] = handler.cases();
    transitionHandlers = all;
  }

  /**
   * Adds a transition handler that runs on every transition.
   *
   * @param handler what to do with the state left and the state entered
   */
  public final void onTransition(FSM.UnitApply2<S, S> handler) {
    onTransition(new FSMTransitionHandlerBuilder<S>().state(null, null, handler));
  }

  /**
   * Sets the termination handler, run once when the FSM stops; replaces an earlier one.
   *
   * @param handler the cases, by stop reason
   */
  public final void onTermination(FSMStopBuilder<S, D> handler) {
    stopCases = handler.cases();
  }

  /**
   * Enters the initial state set by {@link #startWith}: runs the transition handlers for the
   * initial state to itself and arms its timeout. Call it last in the constructor (or in {@code
   * preStart}); the FSM handles no message before.
   *
   * @throws IllegalStateException if {@code startWith} was not called, the initial state has no
   *     cases, or a transition handler threw a checked exception (its cause)
   */
  public final void initialize() {
    if (currentState == null) {
      throw new IllegalStateException("call startWith before initialize");
    }
    if (entry(currentState.stateName()) == null) {
      throw new IllegalStateException("the initial state " + currentState.stateName()
          + " has no cases: register it with when(...) before initialize");
    }
    try {
      makeTransition(currentState, null);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("a transition handler failed while initializing", e);
    }
  }

  // =============================================================== next states

  /**
   * The next state: another one, or this one again (which, unlike {@link #stay()}, runs the
   * transition handlers). Keeps the current data unless {@link FSM.State#using} changes it.
   *
   * @param nextStateName the next state's name
   * @return the descriptor to return from a handler
   */
  public final State<S, D> goTo(S nextStateName) {
    Objects.requireNonNull(nextStateName, "nextStateName");
    return State.of(nextStateName, current().stateData(), true);
  }

  /**
   * Stays in the current state, with its data unless {@link FSM.State#using} changes it: no
   * transition handler runs; the state's timeout is armed again.
   *
   * @return the descriptor to return from a handler
   */
  public final State<S, D> stay() {
    State<S, D> s = stayCache;
    if (s == null) {
      State<S, D> c = current();
      s = State.of(c.stateName(), c.stateData(), false);
      stayCache = s;
    }
    return s;
  }

  /**
   * Stops the FSM with {@link FSM.Normal}.
   *
   * @return the descriptor to return from a handler
   */
  public final State<S, D> stop() {
    return stop(FSM.Normal.INSTANCE);
  }

  /**
   * Stops the FSM with a reason.
   *
   * @param reason the reason the termination handler gets
   * @return the descriptor to return from a handler
   */
  public final State<S, D> stop(FSM.Reason reason) {
    return stay().withStopReason(reason);
  }

  /**
   * Stops the FSM with a reason and the data the termination handler gets.
   *
   * @param reason the reason
   * @param stateData the data
   * @return the descriptor to return from a handler
   */
  public final State<S, D> stop(FSM.Reason reason, D stateData) {
    return stay().using(stateData).withStopReason(reason);
  }

  /** @return the reason {@link FSM.Normal} */
  public final FSM.Reason Normal() {
    return FSM.Normal.INSTANCE;
  }

  /** @return the reason {@link FSM.Shutdown} */
  public final FSM.Reason Shutdown() {
    return FSM.Shutdown.INSTANCE;
  }

  /**
   * A failure reason.
   *
   * @param cause the error
   * @return the reason {@link FSM.Failure}
   */
  public final FSM.Reason Failure(Object cause) {
    return new FSM.Failure(cause);
  }

  /** @return the state-timeout event, {@link FSM.StateTimeout#INSTANCE} */
  public final FSM.StateTimeout StateTimeout() {
    return FSM.StateTimeout.INSTANCE;
  }

  // =============================================================== accessors

  /** @return the current state's name */
  public final S stateName() {
    return current().stateName();
  }

  /** @return the current state's data */
  public final D stateData() {
    return current().stateData();
  }

  /**
   * The data of the state being entered; only inside a transition handler, where {@link
   * #stateData()} is still the data of the state being left.
   *
   * @return the next state's data
   * @throws IllegalStateException outside a transition handler
   */
  public final D nextStateData() {
    if (nextState == null) {
      throw new IllegalStateException("nextStateData is only available in a transition handler");
    }
    return nextState.stateData();
  }

  // =============================================================== timers

  /**
   * Sends {@code msg} to this FSM repeatedly, {@code delay} after each was handled; a timer
   * started under the same name replaces it. See {@link TimerScheduler}.
   *
   * @param name the timer's name
   * @param msg the message
   * @param delay the delay
   */
  public final void startTimerWithFixedDelay(String name, Object msg, Duration delay) {
    cell().timers().startTimerWithFixedDelay(Objects.requireNonNull(name, "name"), msg, delay);
  }

  /**
   * Sends {@code msg} to this FSM every {@code interval}; a timer started under the same name
   * replaces it. See {@link TimerScheduler}.
   *
   * @param name the timer's name
   * @param msg the message
   * @param interval the interval
   */
  public final void startTimerAtFixedRate(String name, Object msg, Duration interval) {
    cell().timers().startTimerAtFixedRate(Objects.requireNonNull(name, "name"), msg, interval);
  }

  /**
   * Sends {@code msg} to this FSM once, after {@code delay}; a timer started under the same name
   * replaces it. See {@link TimerScheduler}.
   *
   * @param name the timer's name
   * @param msg the message
   * @param delay the delay
   */
  public final void startSingleTimer(String name, Object msg, Duration delay) {
    cell().timers().startSingleTimer(Objects.requireNonNull(name, "name"), msg, delay);
  }

  /**
   * Cancels a timer; its message is not received afterwards, even if already queued.
   *
   * @param name the timer's name
   */
  public final void cancelTimer(String name) {
    cell().timers().cancel(Objects.requireNonNull(name, "name"));
  }

  /**
   * Whether a timer is active: started, not cancelled, and for a single timer not yet received.
   *
   * @param name the timer's name
   * @return {@code true} if active
   */
  public final boolean isTimerActive(String name) {
    return cell().timers().isTimerActive(Objects.requireNonNull(name, "name"));
  }

  // =============================================================== the actor

  /**
   * The FSM's behaviour: every message goes through the state machine.
   *
   * @return the behaviour
   */
  @Override
  public final Receive createReceive() {
    return Receive.of(this::dispatch);
  }

  /**
   * Runs the termination handler with {@link FSM.Shutdown} unless the FSM stopped itself (which
   * ran it already). Called when the actor stops from outside and, through {@code preRestart},
   * before a restart; an override must call {@code super.postStop()}.
   *
   * @throws Exception what the termination handler threw
   */
  @Override
  public void postStop() throws Exception {
    if (currentState != null) {
      terminate(stay().withStopReason(FSM.Shutdown.INSTANCE));
    }
  }

  private void dispatch(Object message) throws Exception {
    if (currentEntry == null) {
      throw new IllegalStateException(
          getClass().getName() + " received " + message + " before initialize() was called");
    }
    if (currentState.rawStopReason() != null) {
      return; // stopped itself: nothing more is handled while the stop completes
    }
    if (message == STATE_TIMER) {
      stateTimerPending = false;
      handle(FSM.StateTimeout.INSTANCE, getContext().getSystem().deadLetters());
    } else if (message instanceof FSM.SubscribeTransitionCallBack s) {
      subscribe(s.actorRef());
    } else if (message instanceof FSM.UnsubscribeTransitionCallBack u) {
      if (listeners != null && listeners.remove(u.actorRef())) {
        getContext().unwatch(u.actorRef());
      }
    } else if (message instanceof ListenerTerminated t) {
      if (listeners != null) {
        listeners.remove(t.actorRef());
      }
    } else {
      if (message instanceof Terminated t && listeners != null) {
        listeners.remove(t.actor()); // a subscriber the subclass watches itself
      }
      if (stateTimerPending) {
        stateTimerPending = false;
        cell().timers().cancel(STATE_TIMER);
      }
      handle(message, getSender());
    }
  }

  private void handle(Object event, ActorRef replyTo) throws Exception {
    D data = currentState.stateData();
    logEvent(currentState.stateName(), data, event);
    EventCase c = find(currentEntry.cases, event, data);
    if (c == null) {
      c = find(unhandledCases, event, data);
    }
    State<S, D> next;
    if (c != null) {
      @SuppressWarnings("unchecked")
      State<S, D> n = (State<S, D>) c.apply.apply(event, data);
      if (n == null) {
        throw new IllegalStateException("the handler of " + event + " in state "
            + currentState.stateName() + " returned null instead of a state");
      }
      next = n;
    } else {
      log().warning("unhandled event {} in state {}", event, currentState.stateName());
      getContext().getSystem().eventStream().publish(new UnhandledMessage(event, replyTo, getSelf()));
      next = stay();
    }
    if (next.rawStopReason() == null) {
      makeTransition(next, replyTo);
    } else {
      sendReplies(next, replyTo);
      terminate(next);
      getContext().stop(getSelf());
    }
  }

  /**
   * Called with each event before the machine handles it; {@link AbstractLoggingFSM} keeps it.
   *
   * @param state the state it arrives in
   * @param data the state's data
   * @param event the event
   */
  void logEvent(S state, D data, Object event) {}

  /** Called when the machine stops with a {@code Failure}; {@link AbstractLoggingFSM} logs what it kept. */
  void logEventsBeforeFailure() {}

  private static EventCase find(EventCase[] cases, Object event, Object data) {
    for (EventCase c : cases) {
      if (c.matches(event, data)) {
        return c;
      }
    }
    return null;
  }

  private void makeTransition(State<S, D> next, ActorRef replyTo) throws Exception {
    StateEntry entry = entry(next.stateName());
    if (entry == null) {
      terminate(stay().withStopReason(
          new FSM.Failure("Next state " + next.stateName() + " does not exist")));
      getContext().stop(getSelf());
      return;
    }
    sendReplies(next, replyTo);
    S from = currentState.stateName();
    S to = next.stateName();
    if (next.notifies() || !from.equals(to)) {
      nextState = next;
      try {
        runTransitionHandlers(from, to);
      } finally {
        nextState = null;
      }
      gossip(from, to);
    }
    currentState = next;
    currentEntry = entry;
    // a plain stay() result stays valid as stay() while it is the current state
    stayCache = !next.notifies() && !next.timeoutSet() && next.rawReplies().length == 0 ? next : null;
    Duration timeout = next.timeoutSet() ? next.rawTimeout() : entry.timeout;
    if (timeout != null) {
      cell().timers().startSingleTimer(STATE_TIMER, STATE_TIMER, timeout);
      stateTimerPending = true;
    } else if (stateTimerPending) {
      stateTimerPending = false;
      cell().timers().cancel(STATE_TIMER);
    }
  }

  private void runTransitionHandlers(S from, S to) throws Exception {
    for (TransitionCase[] handler : transitionHandlers) {
      for (TransitionCase c : handler) {
        if (c.matches(from, to)) {
          c.apply.apply(from, to);
          break;
        }
      }
    }
  }

  private void gossip(S from, S to) {
    List<ActorRef> l = listeners;
    if (l != null && !l.isEmpty()) {
      ActorRef self = getSelf();
      FSM.Transition<S> t = new FSM.Transition<>(self, from, to);
      for (int i = 0; i < l.size(); i++) {
        l.get(i).tell(t, self);
      }
    }
  }

  private void subscribe(ActorRef subscriber) {
    Objects.requireNonNull(subscriber, "SubscribeTransitionCallBack.actorRef");
    if (listeners == null) {
      listeners = new ArrayList<>(2);
    }
    if (!listeners.contains(subscriber)) {
      listeners.add(subscriber);
      getContext().watchWith(subscriber, new ListenerTerminated(subscriber));
    }
    subscriber.tell(new FSM.CurrentState<>(getSelf(), currentState.stateName()), getSelf());
  }

  private void sendReplies(State<S, D> next, ActorRef replyTo) {
    Object[] replies = next.rawReplies();
    if (replies.length > 0 && replyTo != null) {
      ActorRef self = getSelf();
      for (Object r : replies) {
        replyTo.tell(r, self);
      }
    }
  }

  /** Runs the termination handler once: the first stop wins (stop() before postStop's Shutdown). */
  private void terminate(State<S, D> last) throws Exception {
    if (currentState.rawStopReason() != null) {
      return;
    }
    FSM.Reason reason = last.rawStopReason();
    if (reason instanceof FSM.Failure f) {
      if (f.cause() instanceof Throwable t) {
        log().error(t, "terminating due to Failure in state {}", currentState.stateName());
      } else {
        log().error("terminating due to Failure in state {}: {}", currentState.stateName(), f.cause());
      }
      logEventsBeforeFailure();
    }
    cell().timers().cancelAll();
    stateTimerPending = false;
    currentState = last;
    stayCache = null;
    for (StopCase c : stopCases) {
      if (c.matches(reason)) {
        c.apply.apply(reason, last.stateName(), last.stateData());
        break;
      }
    }
  }

  private State<S, D> current() {
    if (currentState == null) {
      throw new IllegalStateException("call startWith before using the state");
    }
    return currentState;
  }

  private StateEntry entry(Object stateName) {
    StateEntry e = states.get(stateName);
    return e == null || e.cases == null ? null : e;
  }

  private static EventCase[] concat(EventCase[] a, EventCase[] b) {
    EventCase[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  private static Duration nonNegative(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("state timeout must not be negative, was " + d);
    }
    return d;
  }
}
