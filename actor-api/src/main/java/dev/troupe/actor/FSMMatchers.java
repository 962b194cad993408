package dev.troupe.actor;

import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * The builder-starting methods of {@link AbstractFSM} ({@code matchEvent}, {@code matchState},
 * {@code matchStop}): stateless, kept apart from the machine itself. Package-private; their
 * documentation shows on {@code AbstractFSM}.
 *
 * @param <S> the state-name type
 * @param <D> the state-data type
 */
abstract class FSMMatchers<S, D> extends AbstractActor {

  /** For {@link AbstractFSM} only. */
  FSMMatchers() {}


  /**
   * Starts cases with one for events of a type while the data is of a type and both pass a
   * predicate.
   *
   * @param eventType the event type
   * @param dataType the data type
   * @param predicate the condition
   * @param apply the handler, returning the next state
   * @param <E> the event type
   * @param <DD> the data type
   * @return a builder with that case
   */
  public final <E, DD> FSMStateFunctionBuilder<S, D> matchEvent(Class<E> eventType,
      Class<DD> dataType, BiPredicate<E, DD> predicate, FSM.Apply2<E, DD, FSM.State<S, D>> apply) {
    return new FSMStateFunctionBuilder<S, D>().event(eventType, dataType, predicate, apply);
  }

  /**
   * Starts cases with one for events of a type while the data is of a type.
   *
   * @param eventType the event type
   * @param dataType the data type
   * @param apply the handler, returning the next state
   * @param <E> the event type
   * @param <DD> the data type
   * @return a builder with that case
   */
  public final <E, DD> FSMStateFunctionBuilder<S, D> matchEvent(
      Class<E> eventType, Class<DD> dataType, FSM.Apply2<E, DD, FSM.State<S, D>> apply) {
    return new FSMStateFunctionBuilder<S, D>().event(eventType, dataType, apply);
  }

  /**
   * Starts cases with one for events of a type that pass a predicate with the data.
   *
   * @param eventType the event type
   * @param predicate the condition
   * @param apply the handler, returning the next state
   * @param <E> the event type
   * @return a builder with that case
   */
  public final <E> FSMStateFunctionBuilder<S, D> matchEvent(
      Class<E> eventType, BiPredicate<E, D> predicate, FSM.Apply2<E, D, FSM.State<S, D>> apply) {
    return new FSMStateFunctionBuilder<S, D>().event(eventType, predicate, apply);
  }

  /**
   * Starts cases with one for events of a type, whatever the data.
   *
   * @param eventType the event type
   * @param apply the handler, returning the next state
   * @param <E> the event type
   * @return a builder with that case
   */
  public final <E> FSMStateFunctionBuilder<S, D> matchEvent(
      Class<E> eventType, FSM.Apply2<E, D, FSM.State<S, D>> apply) {
    return new FSMStateFunctionBuilder<S, D>().event(eventType, apply);
  }

  /**
   * Starts cases with one for any event that passes a predicate with the data.
   *
   * @param predicate the condition
   * @param apply the handler, returning the next state
   * @return a builder with that case
   */
  public final FSMStateFunctionBuilder<S, D> matchEvent(
      BiPredicate<Object, D> predicate, FSM.Apply2<Object, D, FSM.State<S, D>> apply) {
    return new FSMStateFunctionBuilder<S, D>().event(predicate, apply);
  }

  /**
   * Starts cases with one for events matching an entry of a list (a {@code Class}: its
   * instances; anything else: equal values) while the data is of a type.
   *
   * @param eventMatches the types and values
   * @param dataType the data type
   * @param apply the handler, returning the next state
   * @param <DD> the data type
   * @return a builder with that case
   */
  public final <DD> FSMStateFunctionBuilder<S, D> matchEvent(
      List<Object> eventMatches, Class<DD> dataType, FSM.Apply2<Object, DD, FSM.State<S, D>> apply) {
    return new FSMStateFunctionBuilder<S, D>().event(eventMatches, dataType, apply);
  }

  /**
   * Starts cases with one for events matching an entry of a list, whatever the data.
   *
   * @param eventMatches the types and values
   * @param apply the handler, returning the next state
   * @return a builder with that case
   */
  public final FSMStateFunctionBuilder<S, D> matchEvent(
      List<Object> eventMatches, FSM.Apply2<Object, D, FSM.State<S, D>> apply) {
    return new FSMStateFunctionBuilder<S, D>().event(eventMatches, apply);
  }

  /**
   * Starts cases with one for events equal to a value while the data is of a type.
   *
   * @param event the value
   * @param dataType the data type
   * @param apply the handler, returning the next state
   * @param <E> the event type
   * @param <DD> the data type
   * @return a builder with that case
   */
  public final <E, DD> FSMStateFunctionBuilder<S, D> matchEventEquals(
      E event, Class<DD> dataType, FSM.Apply2<E, DD, FSM.State<S, D>> apply) {
    return new FSMStateFunctionBuilder<S, D>().eventEquals(event, dataType, apply);
  }

  /**
   * Starts cases with one for events equal to a value, whatever the data.
   *
   * @param event the value
   * @param apply the handler, returning the next state
   * @param <E> the event type
   * @return a builder with that case
   */
  public final <E> FSMStateFunctionBuilder<S, D> matchEventEquals(
      E event, FSM.Apply2<E, D, FSM.State<S, D>> apply) {
    return new FSMStateFunctionBuilder<S, D>().eventEquals(event, apply);
  }

  /**
   * Starts cases with one for every event.
   *
   * @param apply the handler, returning the next state
   * @return a builder with that case
   */
  public final FSMStateFunctionBuilder<S, D> matchAnyEvent(FSM.Apply2<Object, D, FSM.State<S, D>> apply) {
    return new FSMStateFunctionBuilder<S, D>().anyEvent(apply);
  }

  /**
   * Starts a transition handler with a case for transitions from one state to another.
   *
   * @param fromState the state left, {@code null} for any
   * @param toState the state entered, {@code null} for any
   * @param apply what to do
   * @return a builder with that case
   */
  public final FSMTransitionHandlerBuilder<S> matchState(
      S fromState, S toState, FSM.UnitApplyVoid apply) {
    return new FSMTransitionHandlerBuilder<S>().state(fromState, toState, apply);
  }

  /**
   * Starts a transition handler with a case for transitions from one state to another, given both.
   *
   * @param fromState the state left, {@code null} for any
   * @param toState the state entered, {@code null} for any
   * @param apply what to do with the state left and the state entered
   * @return a builder with that case
   */
  public final FSMTransitionHandlerBuilder<S> matchState(
      S fromState, S toState, FSM.UnitApply2<S, S> apply) {
    return new FSMTransitionHandlerBuilder<S>().state(fromState, toState, apply);
  }

  /**
   * Starts a termination handler with a case for a reason equal to a value, given state and data.
   *
   * @param reason the reason, e.g. {@link AbstractFSM#Normal()}
   * @param apply what to do with the state name and data
   * @return a builder with that case
   */
  public final FSMStopBuilder<S, D> matchStop(FSM.Reason reason, FSM.UnitApply2<S, D> apply) {
    return new FSMStopBuilder<S, D>().stop(reason, apply);
  }

  /**
   * Starts a termination handler with a case for a reason equal to a value.
   *
   * @param reason the reason
   * @param apply what to do with the reason, the state name and the data
   * @return a builder with that case
   */
  public final FSMStopBuilder<S, D> matchStop(
      FSM.Reason reason, FSM.UnitApply3<FSM.Reason, S, D> apply) {
    return new FSMStopBuilder<S, D>().stop(reason, apply);
  }

  /**
   * Starts a termination handler with a case for reasons of a type.
   *
   * @param reasonType the reason type, e.g. {@code Failure.class}
   * @param apply what to do with the reason, the state name and the data
   * @param <R> the reason type
   * @return a builder with that case
   */
  public final <R extends FSM.Reason> FSMStopBuilder<S, D> matchStop(
      Class<R> reasonType, FSM.UnitApply3<R, S, D> apply) {
    return new FSMStopBuilder<S, D>().stop(reasonType, apply);
  }

  /**
   * Starts a termination handler with a case for reasons of a type that pass a predicate.
   *
   * @param reasonType the reason type
   * @param predicate the condition
   * @param apply what to do with the reason, the state name and the data
   * @param <R> the reason type
   * @return a builder with that case
   */
  public final <R extends FSM.Reason> FSMStopBuilder<S, D> matchStop(
      Class<R> reasonType, Predicate<R> predicate, FSM.UnitApply3<R, S, D> apply) {
    return new FSMStopBuilder<S, D>().stop(reasonType, predicate, apply);
  }
}
