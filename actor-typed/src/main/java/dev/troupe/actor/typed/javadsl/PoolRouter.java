package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The behaviour of a pool router ({@link Routers#pool}): immutable, each {@code with} method
 * returns a changed copy.
 *
 * @param <T> what the routees accept
 */
public abstract class PoolRouter<T> extends Behavior<T> {
  PoolRouter() {}

  /** @return this router routing each message to the next routee in turn (the default) */
  public abstract PoolRouter<T> withRoundRobinRouting();

  /** @return this router routing each message to a routee picked at random */
  public abstract PoolRouter<T> withRandomRouting();

  /**
   * This router routing by a key of each message on a hash ring: messages with the same key go to
   * the same routee while the routees stay the same; when one goes, only its keys move.
   *
   * @param virtualNodesFactor points on the ring per routee (at least 1; more spreads keys more
   *     evenly)
   * @param mapping the key of a message
   * @return the changed copy
   * @throws IllegalArgumentException if {@code virtualNodesFactor} is under 1
   */
  public abstract PoolRouter<T> withConsistentHashingRouting(int virtualNodesFactor, Function<T, String> mapping);

  /**
   * This router sending every message that {@code predicate} accepts to all its routees (others
   * are routed as before).
   *
   * @param predicate which messages to broadcast
   * @return the changed copy
   */
  public abstract PoolRouter<T> withBroadcastPredicate(Predicate<? super T> predicate);

  /**
   * @param poolSize how many routees (at least 1)
   * @return the changed copy
   * @throws IllegalArgumentException if {@code poolSize} is under 1
   */
  public abstract PoolRouter<T> withPoolSize(int poolSize);

  /**
   * @param props the routees' props (e.g. a dispatcher)
   * @return the changed copy
   */
  public abstract PoolRouter<T> withRouteeProps(Props props);
}
