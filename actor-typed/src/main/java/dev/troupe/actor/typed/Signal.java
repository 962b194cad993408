package dev.troupe.actor.typed;

/**
 * A lifecycle notification an actor's behaviour may handle next to its messages ({@code onSignal}
 * of the builders): {@link PostStop}, {@link PreRestart}, {@link Terminated}, {@link ChildFailed}.
 * Signals are not messages: they cannot be sent, and their type is not the actor's {@code T}.
 */
public interface Signal {}
