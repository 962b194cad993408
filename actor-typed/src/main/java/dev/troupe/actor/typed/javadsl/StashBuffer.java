package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.Behavior;
import java.util.function.Consumer;

/**
 * A bounded buffer of messages the actor is not ready for, from {@code Behaviors.withStash}: stash
 * them now, hand them all to a behaviour later with {@link #unstashAll}, in the order they were
 * stashed. The buffer belongs to the actor (a restart gets a new, empty one). Use only on the actor's
 * thread.
 *
 * @param <T> the type of message the actor accepts
 */
public interface StashBuffer<T> {
  /**
   * Keeps a message.
   *
   * @param message the message
   * @return this buffer
   * @throws dev.troupe.actor.StashOverflowException if the buffer is full
   */
  StashBuffer<T> stash(T message);

  /**
   * Hands the stashed messages, oldest first, to {@code behavior} (started first if it is deferred)
   * and to the behaviours it returns, and returns the behaviour after the last one. Messages stashed
   * again meanwhile stay in the buffer; if a message stops the actor, the rest stay unhandled.
   *
   * @param behavior the behaviour that handles them
   * @return the behaviour to continue with
   */
  Behavior<T> unstashAll(Behavior<T> behavior);

  /** @return the number of messages stashed */
  int size();

  /** @return whether no message is stashed */
  boolean isEmpty();

  /** @return whether {@link #stash} would fail */
  boolean isFull();

  /** @return the most messages the buffer holds */
  int capacity();

  /**
   * Runs an action for each stashed message, oldest first, keeping them.
   *
   * @param action the action
   */
  void forEach(Consumer<T> action);

  /** Drops every stashed message. */
  void clear();
}
