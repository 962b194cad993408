package dev.troupe.actor;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The types of {@link AbstractFSM}: its state descriptor, stop reasons, the state-timeout event,
 * the transition-subscription messages and the handler interfaces. {@code AbstractFSM} implements
 * this interface, so a subclass names them without a prefix ({@code State<S, D>}, {@code
 * Transition}); elsewhere they read as in Pekko ({@code FSM.SubscribeTransitionCallBack}, {@code
 * FSM.CurrentState}) or as {@code AbstractFSM.Transition}.
 *
 * <p>Only {@link AbstractFSM} implements it; it declares no methods.
 */
public sealed interface FSM permits AbstractFSM {

  /**
   * What a state handler returns: the next state's name and data, plus an optional state timeout
   * for that entry, replies to send, and a stop reason. Immutable: every modifier returns a new
   * descriptor. Obtain one from {@link AbstractFSM#goTo}, {@link AbstractFSM#stay()} or {@link
   * AbstractFSM#stop()}.
   *
   * @param <S> the state-name type
   * @param <D> the state-data type
   */
  final class State<S, D> {
    private static final Object[] NO_REPLIES = new Object[0];

    private final S stateName;
    private final D stateData;
    private final boolean timeoutSet; // forMax was called: timeout (null = none) replaces the default
    private final Duration timeout;
    private final Reason stopReason;
    private final Object[] replies; // in the order they were added
    private final boolean notifies; // goTo: run transition handlers even towards the same name

    State(S stateName, D stateData, boolean timeoutSet, Duration timeout, Reason stopReason,
        Object[] replies, boolean notifies) {
      this.stateName = stateName;
      this.stateData = stateData;
      this.timeoutSet = timeoutSet;
      this.timeout = timeout;
      this.stopReason = stopReason;
      this.replies = replies;
      this.notifies = notifies;
    }

    static <S, D> State<S, D> of(S stateName, D stateData, boolean notifies) {
      return new State<>(stateName, stateData, false, null, null, NO_REPLIES, notifies);
    }

    /**
     * The same descriptor with other data: the data of the next state.
     *
     * @param nextStateData the data
     * @return the new descriptor
     */
    public State<S, D> using(D nextStateData) {
      return new State<>(stateName, nextStateData, timeoutSet, timeout, stopReason, replies, notifies);
    }

    /**
     * The same descriptor with a state timeout for this entry of the next state, replacing the
     * timeout that state was registered with ({@link AbstractFSM#when(Object, Duration,
     * FSMStateFunctionBuilder)}).
     *
     * @param timeout the timeout; {@code null} means no timeout for this entry, zero delivers the
     *     timeout event at once (after the transition)
     * @return the new descriptor
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public State<S, D> forMax(Duration timeout) {
      if (timeout != null && timeout.isNegative()) {
        throw new IllegalArgumentException("state timeout must not be negative, was " + timeout);
      }
      return new State<>(stateName, stateData, true, timeout, stopReason, replies, notifies);
    }

    /**
     * The same descriptor with one more reply: once the state is applied, {@code reply} is sent
     * to the sender of the message being handled (dead letters for a state timeout). Replies go in
     * the order they were added.
     *
     * @param reply the reply
     * @return the new descriptor
     */
    public State<S, D> replying(Object reply) {
      Objects.requireNonNull(reply, "reply");
      Object[] r = Arrays.copyOf(replies, replies.length + 1);
      r[replies.length] = reply;
      return new State<>(stateName, stateData, timeoutSet, timeout, stopReason, r, notifies);
    }

    /**
     * The same descriptor with a stop reason: applying it stops the FSM.
     *
     * @param reason why it stops
     * @return the new descriptor
     */
    public State<S, D> withStopReason(Reason reason) {
      Objects.requireNonNull(reason, "reason");
      return new State<>(stateName, stateData, timeoutSet, timeout, reason, replies, notifies);
    }

    /** @return the name of the next state */
    public S stateName() {
      return stateName;
    }

    /** @return the data of the next state */
    public D stateData() {
      return stateData;
    }

    /**
     * The timeout set by {@link #forMax(Duration)}.
     *
     * @return the timeout, empty if none was set or {@code forMax(null)} removed it
     */
    public Optional<Duration> timeout() {
      return Optional.ofNullable(timeout);
    }

    /** @return the stop reason, empty unless this descriptor stops the FSM */
    public Optional<Reason> stopReason() {
      return Optional.ofNullable(stopReason);
    }

    /** @return the replies, in the order they will be sent */
    public List<Object> replies() {
      return Collections.unmodifiableList(Arrays.asList(replies));
    }

    boolean timeoutSet() {
      return timeoutSet;
    }

    Duration rawTimeout() {
      return timeout;
    }

    Reason rawStopReason() {
      return stopReason;
    }

    Object[] rawReplies() {
      return replies;
    }

    boolean notifies() {
      return notifies;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof State<?, ?> s
          && Objects.equals(stateName, s.stateName)
          && Objects.equals(stateData, s.stateData)
          && timeoutSet == s.timeoutSet
          && Objects.equals(timeout, s.timeout)
          && Objects.equals(stopReason, s.stopReason)
          && Arrays.equals(replies, s.replies);
    }

    @Override
    public int hashCode() {
      return Objects.hash(stateName, stateData, timeout, stopReason, Arrays.hashCode(replies));
    }

    @Override
    public String toString() {
      return "State(" + stateName + ", " + stateData
          + (timeoutSet ? ", forMax " + timeout : "")
          + (stopReason != null ? ", stop " + stopReason : "")
          + (replies.length > 0 ? ", replies " + Arrays.toString(replies) : "")
          + ")";
    }
  }

  /** Why an FSM stopped, as its {@link AbstractFSM#onTermination} handler sees it. */
  sealed interface Reason permits Normal, Shutdown, Failure {}

  /** The FSM stopped itself with {@link AbstractFSM#stop()}. */
  record Normal() implements Reason {
    /** The one instance ({@link AbstractFSM#Normal()}); every instance is equal to it. */
    public static final Normal INSTANCE = new Normal();
  }

  /** The FSM was stopped from outside (a {@link PoisonPill}, its parent, {@code stop}) or restarted. */
  record Shutdown() implements Reason {
    /** The one instance ({@link AbstractFSM#Shutdown()}); every instance is equal to it. */
    public static final Shutdown INSTANCE = new Shutdown();
  }

  /**
   * The FSM stopped itself because of an error, e.g. with {@code stop(Failure(cause))}, or because
   * it was told to go to a state it has no handler for.
   *
   * @param cause the error: an exception, a text or any other value
   */
  record Failure(Object cause) implements Reason {}

  /**
   * The event an FSM receives when a state timeout expires: the state it entered (or stayed in)
   * with a timeout received no other message in time. Match it with {@code
   * matchEventEquals(StateTimeout(), ...)} or {@code matchEvent(StateTimeout.class, ...)}.
   */
  final class StateTimeout {
    /** The one instance, {@link AbstractFSM#StateTimeout()}. */
    public static final StateTimeout INSTANCE = new StateTimeout();

    private StateTimeout() {}

    @Override
    public String toString() {
      return "StateTimeout";
    }
  }

  /**
   * Subscribes an actor to the FSM's transitions: it gets {@link CurrentState} at once, then a
   * {@link Transition} for each transition until it unsubscribes or stops.
   *
   * @param actorRef the subscriber
   */
  record SubscribeTransitionCallBack(ActorRef actorRef) {}

  /**
   * Ends a subscription made with {@link SubscribeTransitionCallBack}.
   *
   * @param actorRef the subscriber
   */
  record UnsubscribeTransitionCallBack(ActorRef actorRef) {}

  /**
   * The state of an FSM when an actor subscribed to it.
   *
   * @param fsmRef the FSM
   * @param state the name of its state
   * @param <S> the state-name type
   */
  record CurrentState<S>(ActorRef fsmRef, S state) {}

  /**
   * A transition of an FSM, sent to its subscribers.
   *
   * @param fsmRef the FSM
   * @param from the name of the state it left
   * @param to the name of the state it entered
   * @param <S> the state-name type
   */
  record Transition<S>(ActorRef fsmRef, S from, S to) {}

  /**
   * One event an {@link AbstractLoggingFSM} kept: the state it arrived in, that state's data, and
   * the event.
   *
   * @param stateName the state's name
   * @param stateData the state's data
   * @param event the event
   * @param <S> the state-name type
   * @param <D> the state-data type
   */
  record LogEntry<S, D>(S stateName, D stateData, Object event) {}

  /**
   * A function of two arguments that may throw: the handler of an event case.
   *
   * @param <A> the first argument type
   * @param <B> the second argument type
   * @param <R> the result type
   */
  @FunctionalInterface
  interface Apply2<A, B, R> {
    /**
     * Applies the function.
     *
     * @param a the first argument
     * @param b the second argument
     * @return the result
     * @throws Exception any failure; inside an actor it goes to the supervisor
     */
    R apply(A a, B b) throws Exception;
  }

  /** A procedure of no arguments that may throw: a transition handler that needs no states. */
  @FunctionalInterface
  interface UnitApplyVoid {
    /**
     * Runs the procedure.
     *
     * @throws Exception any failure; inside an actor it goes to the supervisor
     */
    void apply() throws Exception;
  }

  /**
   * A procedure of two arguments that may throw: a transition handler (from, to) or a stop
   * handler (state, data).
   *
   * @param <A> the first argument type
   * @param <B> the second argument type
   */
  @FunctionalInterface
  interface UnitApply2<A, B> {
    /**
     * Runs the procedure.
     *
     * @param a the first argument
     * @param b the second argument
     * @throws Exception any failure; inside an actor it goes to the supervisor
     */
    void apply(A a, B b) throws Exception;
  }

  /**
   * A procedure of three arguments that may throw: a stop handler (reason, state, data).
   *
   * @param <A> the first argument type
   * @param <B> the second argument type
   * @param <C> the third argument type
   */
  @FunctionalInterface
  interface UnitApply3<A, B, C> {
    /**
     * Runs the procedure.
     *
     * @param a the first argument
     * @param b the second argument
     * @param c the third argument
     * @throws Exception any failure; inside an actor it goes to the supervisor
     */
    void apply(A a, B b, C c) throws Exception;
  }
}
