package dev.troupe.persistence.typed.javadsl;

import dev.troupe.actor.typed.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * What an event-sourced or durable-state behaviour does on signals: the persistence ones ({@code
 * RecoveryCompleted}, {@code RecoveryFailed}, {@code SnapshotCompleted}, {@code SnapshotFailed})
 * and the actor's ({@code PostStop}, {@code PreRestart}, {@code Terminated}, ...), each with the
 * current state. Build one with {@link EventSourcedBehavior#newSignalHandlerBuilder()} (or {@code
 * DurableStateBehavior}'s).
 *
 * @param <S> the state
 */
public final class SignalHandler<S> {
  private static final SignalHandler<?> EMPTY = new SignalHandler<>(List.of());

  private final List<Case<S, ?>> cases;

  private SignalHandler(List<Case<S, ?>> cases) {
    this.cases = cases;
  }

  @SuppressWarnings("unchecked")
  static <S> SignalHandler<S> empty() {
    return (SignalHandler<S>) EMPTY;
  }

  /**
   * Runs the first case for the signal's class.
   *
   * @param state the current state
   * @param signal the signal
   * @return whether a case handled it
   */
  public boolean apply(S state, Signal signal) {
    for (Case<S, ?> c : cases) {
      if (c.type.isInstance(signal)) {
        c.run(state, signal);
        return true;
      }
    }
    return false;
  }

  private record Case<S, G extends Signal>(Class<G> type, BiConsumer<S, G> handler) {
    void run(S state, Signal signal) {
      handler.accept(state, type.cast(signal));
    }
  }

  /**
   * Builds a {@link SignalHandler}.
   *
   * @param <S> the state
   */
  public static final class Builder<S> {
    private final List<Case<S, ?>> cases = new ArrayList<>();

    /**
     * An empty builder; {@code newSignalHandlerBuilder()} of {@link EventSourcedBehavior} and of
     * {@code DurableStateBehavior} make one.
     */
    public Builder() {}

    /**
     * @param type a signal class
     * @param handler what to do with it and the state
     * @param <G> the signal's type
     * @return this builder
     */
    public <G extends Signal> Builder<S> onSignal(Class<G> type, BiConsumer<S, G> handler) {
      cases.add(new Case<>(type, handler));
      return this;
    }

    /** @return the handler */
    public SignalHandler<S> build() {
      return new SignalHandler<>(List.copyOf(cases));
    }
  }
}
