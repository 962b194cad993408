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
 *     .orMatchRemote(Flaky.class, e -> SupervisorStrategy.restart())   // a child on another node threw a Flaky
 *     .orMatchAny(e -> SupervisorStrategy.stop())
 *     .build();
 * }</pre>
 *
 * A child deployed onto another node fails with a {@link RemoteCause} that names the original
 * class: {@code match(Flaky.class, …)} does not match it (the original is not re-created here),
 * {@code matchRemote(Flaky.class, …)} does, for {@code Flaky} and its subclasses.
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
   * Starts a builder with a first case for failures of another node whose original class is
   * {@code original} or a subclass of it.
   *
   * @param original the original failure class
   * @param decide the directive, given the {@link RemoteCause} (a {@code Throwable})
   * @return the builder
   */
  public static DeciderBuilder matchRemote(Class<? extends Throwable> original, Function<Throwable, Directive> decide) {
    return new DeciderBuilder().orMatchRemote(original, decide);
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
   * Adds a case for failures of another node ({@link RemoteCause}) whose original class is {@code
   * original} or a subclass of it. The original class is looked up by name without being
   * initialized; a name that cannot be loaded here matches only its own class's name.
   *
   * @param original the original failure class
   * @param decide the directive, given the {@link RemoteCause} (a {@code Throwable})
   * @return this builder
   */
  @SuppressWarnings("unchecked")
  public DeciderBuilder orMatchRemote(Class<? extends Throwable> original, Function<Throwable, Directive> decide) {
    Objects.requireNonNull(original, "original");
    Objects.requireNonNull(decide, "decide");
    Function<?, Directive> f = decide;
    rules.add(
        new Rule(Throwable.class, cause -> cause instanceof RemoteCause r && isA(r.originalClassName(), original),
            (Function<Object, Directive>) f));
    return this;
  }

  /** Whether the class named {@code name} is {@code type} or one of its subclasses. */
  private static boolean isA(String name, Class<?> type) {
    if (name.equals(type.getName())) {
      return true;
    }
    ClassLoader loader = type.getClassLoader() != null ? type.getClassLoader() : Thread.currentThread().getContextClassLoader();
    try {
      return type.isAssignableFrom(Class.forName(name, false, loader));
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
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
