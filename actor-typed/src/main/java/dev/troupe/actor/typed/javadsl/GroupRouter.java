package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.Behavior;
import java.util.function.Function;

/**
 * The behaviour of a group router ({@link Routers#group}): immutable, each {@code with} method
 * returns a changed copy.
 *
 * @param <T> what the service's instances accept
 */
public abstract class GroupRouter<T> extends Behavior<T> {
  /**
   * How many messages wait for the receptionist's first listing; the ones beyond go to dead
   * letters (a listing comes within one round trip to the local receptionist).
   */
  public static final int BUFFER_CAPACITY = 10_000;

  GroupRouter() {}

  /** @return this router routing each message to the next instance in turn (the default) */
  public abstract GroupRouter<T> withRoundRobinRouting();

  /** @return this router routing each message to an instance picked at random */
  public abstract GroupRouter<T> withRandomRouting();

  /**
   * This router routing by a key of each message on a hash ring of the listed instances (see
   * {@link PoolRouter#withConsistentHashingRouting}).
   *
   * @param virtualNodesFactor points on the ring per instance (at least 1)
   * @param mapping the key of a message
   * @return the changed copy
   * @throws IllegalArgumentException if {@code virtualNodesFactor} is under 1
   */
  public abstract GroupRouter<T> withConsistentHashingRouting(int virtualNodesFactor, Function<T, String> mapping);
}
