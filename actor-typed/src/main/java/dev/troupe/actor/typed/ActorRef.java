package dev.troupe.actor.typed;

/**
 * A reference to an actor that accepts messages of type {@code T}: the compiler checks what may be
 * sent to it.
 *
 * <p>Every typed ref of a running actor is a thin view of a classic {@link
 * dev.troupe.actor.ActorRef} (see {@link dev.troupe.actor.typed.javadsl.Adapter#toClassic}): {@link
 * #tell} is the classic {@code tell} with no sender, with nothing allocated on the way. Two typed
 * refs are equal when their classic refs are (by path and uid), whatever their message type.
 *
 * <p>With remoting, a typed ref sent as a message, or held by a field of a message that Jackson
 * writes, travels as its classic ref's path and arrives as a typed ref to the same actor (a message
 * adapter's excepted: it stays in its own system).
 *
 * @param <T> the type of message the actor accepts
 */
public interface ActorRef<T> extends Comparable<ActorRef<?>> {
  /**
   * Sends a message, asynchronously and at most once; the order of two messages from one sender to
   * one recipient is kept.
   *
   * @param message the message (not null)
   * @throws NullPointerException if {@code message} is null
   */
  void tell(T message);

  /** @return the actor's path, including its uid */
  dev.troupe.actor.ActorPath path();

  /**
   * This ref with a narrower message type: an actor that accepts {@code T} accepts every {@code
   * U extends T}. No allocation: the same object.
   *
   * @param <U> the narrower type
   * @return this ref
   */
  @SuppressWarnings("unchecked")
  default <U extends T> ActorRef<U> narrow() {
    return (ActorRef<U>) this;
  }

  /**
   * This ref with another message type, unchecked: for code that knows better than the compiler
   * (e.g. a ref read from a listing). No allocation: the same object.
   *
   * @param <U> the claimed type
   * @return this ref
   */
  @SuppressWarnings("unchecked")
  default <U> ActorRef<U> unsafeUpcast() {
    return (ActorRef<U>) this;
  }

  /** Orders refs by path (as classic refs are). */
  @Override
  default int compareTo(ActorRef<?> other) {
    return path().compareTo(other.path());
  }
}
