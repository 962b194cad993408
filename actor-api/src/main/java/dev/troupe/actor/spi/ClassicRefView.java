package dev.troupe.actor.spi;

import dev.troupe.actor.ActorRef;

/**
 * A kind of reference whose instances stand for classic {@link ActorRef}s (e.g. the typed module's
 * {@code ActorRef<T>}, a view of a classic ref): how to get the classic ref of one, and how to make
 * one of a classic ref.
 *
 * <p>Remoting finds implementations with {@link java.util.ServiceLoader} ({@code provides
 * dev.troupe.actor.spi.ClassicRefView with ...} in the module's descriptor, or {@code
 * META-INF/services} on the class path) when a system's serializers are created, binds {@link
 * #type()} to the serializer of classic refs, and lets its Jackson serializers write a field of
 * that type: in every case the value travels as the path of its classic ref and is read back by
 * resolving the path on the receiving node and wrapping the result with {@link #fromClassic}. A
 * module that is not present adds nothing, so remoting needs no compile-time knowledge of it.
 *
 * @param <R> the kind of reference
 */
public interface ClassicRefView<R> {
  /** @return the type (usually an interface) whose instances this view converts */
  Class<R> type();

  /**
   * @param view an instance of {@link #type()}
   * @return the classic ref it stands for
   * @throws IllegalArgumentException if it stands for no classic ref that another node can reach
   *     (its message says why; remoting reports it as a serialization failure of the message)
   */
  ActorRef toClassic(R view);

  /**
   * @param classic a classic ref (of this node, of another one, or one that sends to dead letters)
   * @return an instance of {@link #type()} that stands for it
   */
  R fromClassic(ActorRef classic);
}
