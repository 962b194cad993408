package dev.troupe.actor.typed.internal;

/**
 * A message Troupe sends to a typed actor for itself (adapted messages, piped results, a backoff's
 * end): the actor runs it instead of handing it to the behaviour.
 *
 * <p>An abstract class, not an interface, on purpose: every message a typed actor receives is
 * tested against this type first, and a failing {@code instanceof} against an interface scans the
 * message class's list of interfaces (and contends on the class's cache of the last one found
 * when two threads test the same class), which measured as more than half the time of a typed
 * ping-pong. Against a class the test is one load and one compare.
 */
public abstract class InternalMessage {
  /** For the runtime's own messages. */
  protected InternalMessage() {}

  /**
   * Runs in the actor.
   *
   * @param actor the actor
   */
  public abstract void deliver(TypedActor<?> actor);
}
