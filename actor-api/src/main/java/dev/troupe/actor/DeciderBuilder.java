package dev.troupe.actor;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Builds a {@link Decider} from cases tried in order; a failure that no case matches escalates.
 *
 * <pre>{@code
 * DeciderBuilder.match(ArithmeticException.class, e -> SupervisorStrategy.resume())
 *     .matchAny(e -> SupervisorStrategy.restart())
 *     .build();
 * }</pre>
 */
public final class DeciderBuilder {
  private record Rule(Class<?> type, Predicate<Object> filter, Function<Object, Directive> fn) {}

  private final List<Rule> rules = new ArrayList<>();

  private DeciderBuilder() {}

  /**
   * Starts a builder with a first case.
   *
   * @param type the failure class
   * @param decide the directive for it
   * @param <E> the failure type
   * @return the builder
   */
  public static <E extends Throwable> DeciderBuilder match(
      Class<E> type, Function<E, Directive> decide) {
    return new DeciderBuilder().orMatch(type, null, decide);
  }

  /**
   * Starts a builder with a first case with a condition.
   *
   * @param type the failure class
   * @param predicate the condition
   * @param decide the directive for it
   * @param <E> the failure type
   * @return the builder
   */
  public static <E extends Throwable> DeciderBuilder match(
      Class<E> type, Predicate<E> predicate, Function<E, Directive> decide) {
    return new DeciderBuilder().orMatch(type, Objects.requireNonNull(predicate), decide);
  }

  /**
   * Starts a builder whose only case matches everything.
   *
   * @param decide the directive
   * @return the builder
   */
  public static DeciderBuilder matchAny(Function<Throwable, Directive> decide) {
    return new DeciderBuilder().orMatchAny(decide);
  }

  /**
   * Adds a case (named {@code match} for symmetry with the static starter).
   *
   * @param type the failure class
   * @param decide the directive for it
   * @param <E> the failure type
   * @return this builder
   */
  public <E extends Throwable> DeciderBuilder orMatch(
      Class<E> type, Function<E, Directive> decide) {
    return orMatch(type, null, decide);
  }

  /**
   * Adds a case with a condition.
   *
   * @param type the failure class
   * @param predicate the condition, or null
   * @param decide the directive for it
   * @param <E> the failure type
   * @return this builder
   */
  @SuppressWarnings("unchecked")
  public <E extends Throwable> DeciderBuilder orMatch(
      Class<E> type, Predicate<E> predicate, Function<E, Directive> decide) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(decide, "decide");
    Predicate<?> p = predicate;
    Function<?, Directive> f = decide;
    rules.add(new Rule(type, (Predicate<Object>) p, (Function<Object, Directive>) f));
    return this;
  }

  /**
   * Adds a case matching every failure.
   *
   * @param decide the directive
   * @return this builder
   */
  @SuppressWarnings("unchecked")
  public DeciderBuilder orMatchAny(Function<Throwable, Directive> decide) {
    Objects.requireNonNull(decide, "decide");
    Function<?, Directive> f = decide;
    rules.add(new Rule(Throwable.class, null, (Function<Object, Directive>) f));
    return this;
  }

  /** @return the decider; unmatched failures escalate */
  public Decider build() {
    Rule[] snapshot = rules.toArray(new Rule[0]);
    return cause -> {
      for (Rule r : snapshot) {
        if (r.type.isInstance(cause) && (r.filter == null || r.filter.test(cause))) {
          Directive d = r.fn.apply(cause);
          return d == null ? Directive.ESCALATE : d;
        }
      }
      return Directive.ESCALATE;
    };
  }
}
