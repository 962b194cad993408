package dev.troupe.actor;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Builds one transition handler of an {@link AbstractFSM} ({@code onTransition}): cases by the
 * state left and the state entered, {@code null} for any state. Within one handler the first
 * matching case runs; every handler given to {@code onTransition} is consulted on each transition.
 * Usually started with {@code matchState(...)} inside the FSM and continued with {@link #state}.
 *
 * @param <S> the state-name type
 */
public final class FSMTransitionHandlerBuilder<S> {
  private final List<TransitionCase> cases = new ArrayList<>();

  /** An empty builder. */
  public FSMTransitionHandlerBuilder() {}

  /**
   * Adds a case for the transitions from one state to another.
   *
   * @param fromState the state left, {@code null} for any
   * @param toState the state entered, {@code null} for any
   * @param apply what to do
   * @return this builder
   */
  public FSMTransitionHandlerBuilder<S> state(S fromState, S toState, FSM.UnitApplyVoid apply) {
    Objects.requireNonNull(apply, "apply");
    return state(fromState, toState, (from, to) -> apply.apply());
  }

  /**
   * Adds a case for the transitions from one state to another, given both.
   *
   * @param fromState the state left, {@code null} for any
   * @param toState the state entered, {@code null} for any
   * @param apply what to do with the state left and the state entered
   * @return this builder
   */
  @SuppressWarnings("unchecked")
  public FSMTransitionHandlerBuilder<S> state(S fromState, S toState, FSM.UnitApply2<S, S> apply) {
    Objects.requireNonNull(apply, "apply");
    cases.add(new TransitionCase(fromState, toState, (FSM.UnitApply2<Object, Object>) apply));
    return this;
  }

  /** @return a copy of the cases added so far, in order */
  TransitionCase[] cases() {
    return cases.toArray(new TransitionCase[0]);
  }

  /** One case: from and to compared with {@code equals}, null for any. */
  static final class TransitionCase {
    private final Object from;
    private final Object to;
    final FSM.UnitApply2<Object, Object> apply;

    TransitionCase(Object from, Object to, FSM.UnitApply2<Object, Object> apply) {
      this.from = from;
      this.to = to;
      this.apply = apply;
    }

    boolean matches(Object f, Object t) {
      return (from == null || from.equals(f)) && (to == null || to.equals(t));
    }
  }
}
