package dev.troupe.actor;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Builds the termination handler of an {@link AbstractFSM} ({@code onTermination}): cases by the
 * stop reason, the first that matches runs with the reason, the last state's name and its data.
 * Usually started with {@code matchStop(...)} inside the FSM and continued with {@link #stop}.
 *
 * @param <S> the state-name type
 * @param <D> the state-data type
 */
public final class FSMStopBuilder<S, D> {
  private final List<StopCase> cases = new ArrayList<>();

  /** An empty builder. */
  public FSMStopBuilder() {}

  /**
   * Adds a case for a reason equal to a value (e.g. {@code Normal()}), given the state and data.
   *
   * @param reason the reason
   * @param apply what to do with the state name and data
   * @return this builder
   */
  public FSMStopBuilder<S, D> stop(FSM.Reason reason, FSM.UnitApply2<S, D> apply) {
    Objects.requireNonNull(apply, "apply");
    FSM.UnitApply3<FSM.Reason, S, D> a = (r, s, d) -> apply.apply(s, d);
    return add(null, Objects.requireNonNull(reason, "reason"), null, a);
  }

  /**
   * Adds a case for a reason equal to a value, given the reason, the state and the data.
   *
   * @param reason the reason
   * @param apply what to do with the reason, the state name and the data
   * @return this builder
   */
  public FSMStopBuilder<S, D> stop(FSM.Reason reason, FSM.UnitApply3<FSM.Reason, S, D> apply) {
    return add(null, Objects.requireNonNull(reason, "reason"), null, apply);
  }

  /**
   * Adds a case for reasons of a type (e.g. {@code FSM.Failure.class}).
   *
   * @param reasonType the reason type
   * @param apply what to do with the reason, the state name and the data
   * @param <R> the reason type
   * @return this builder
   */
  public <R extends FSM.Reason> FSMStopBuilder<S, D> stop(
      Class<R> reasonType, FSM.UnitApply3<R, S, D> apply) {
    return add(Objects.requireNonNull(reasonType, "reasonType"), null, null, apply);
  }

  /**
   * Adds a case for reasons of a type that pass a predicate.
   *
   * @param reasonType the reason type
   * @param predicate the condition, tested only on reasons of that type
   * @param apply what to do with the reason, the state name and the data
   * @param <R> the reason type
   * @return this builder
   */
  public <R extends FSM.Reason> FSMStopBuilder<S, D> stop(
      Class<R> reasonType, Predicate<R> predicate, FSM.UnitApply3<R, S, D> apply) {
    Objects.requireNonNull(predicate, "predicate");
    return add(Objects.requireNonNull(reasonType, "reasonType"), null, predicate, apply);
  }

  /** @return a copy of the cases added so far, in order */
  StopCase[] cases() {
    return cases.toArray(new StopCase[0]);
  }

  @SuppressWarnings("unchecked")
  private FSMStopBuilder<S, D> add(
      Class<?> type, FSM.Reason value, Predicate<?> predicate, FSM.UnitApply3<?, ?, ?> apply) {
    Objects.requireNonNull(apply, "apply");
    cases.add(new StopCase(type, value, (Predicate<Object>) predicate,
        (FSM.UnitApply3<Object, Object, Object>) apply));
    return this;
  }

  /** One case: a type or a value, and an optional predicate. */
  static final class StopCase {
    private final Class<?> type;
    private final FSM.Reason value;
    private final Predicate<Object> predicate;
    final FSM.UnitApply3<Object, Object, Object> apply;

    StopCase(Class<?> type, FSM.Reason value, Predicate<Object> predicate,
        FSM.UnitApply3<Object, Object, Object> apply) {
      this.type = type;
      this.value = value;
      this.predicate = predicate;
      this.apply = apply;
    }

    boolean matches(FSM.Reason reason) {
      if (value != null) {
        return value.equals(reason);
      }
      return type.isInstance(reason) && (predicate == null || predicate.test(reason));
    }
  }
}
