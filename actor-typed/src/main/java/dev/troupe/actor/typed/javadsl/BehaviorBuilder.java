package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.Behavior;

/**
 * Builds a functional behaviour ({@code Behaviors.receive(Command.class)}): cases are tried in the
 * order they were added ({@code onMessage}, {@code onMessageEquals}, {@code onAnyMessage}, {@code
 * onSignal}). Build it once (e.g. in a static factory or in {@code setup}); nothing is allocated
 * per message.
 *
 * @param <T> the type of message the behaviour accepts
 */
public final class BehaviorBuilder<T> extends CaseBuilder<T, BehaviorBuilder<T>> {
  BehaviorBuilder() {}

  /** @return the cases as a behaviour */
  public Behavior<T> build() {
    return receive();
  }
}
