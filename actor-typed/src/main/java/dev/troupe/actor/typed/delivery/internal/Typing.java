package dev.troupe.actor.typed.delivery.internal;

import dev.troupe.actor.typed.Behavior;

/** The controllers handle every message as an {@code Object}; their callers see their commands' type. */
final class Typing {
  private Typing() {}

  /**
   * @param behavior a behaviour that handles its own messages by class
   * @param <T> the type its callers see
   * @return the same behaviour
   */
  @SuppressWarnings("unchecked")
  static <T> Behavior<T> cast(Behavior<Object> behavior) {
    return (Behavior<T>) (Behavior<?>) behavior;
  }
}
