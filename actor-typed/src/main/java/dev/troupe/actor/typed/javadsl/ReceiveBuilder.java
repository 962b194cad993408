package dev.troupe.actor.typed.javadsl;

/**
 * Builds the {@link Receive} of an {@link AbstractBehavior} ({@code newReceiveBuilder()}): cases
 * are tried in the order they were added ({@code onMessage}, {@code onMessageEquals}, {@code
 * onAnyMessage}, {@code onSignal}). {@link #build()} runs once per behaviour instance; nothing is
 * allocated per message.
 *
 * @param <T> the type of message the behaviour accepts
 */
public final class ReceiveBuilder<T> extends CaseBuilder<T, ReceiveBuilder<T>> {
  ReceiveBuilder() {}

  /** @return the cases as a behaviour */
  public Receive<T> build() {
    return receive();
  }
}
