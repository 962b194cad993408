package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.receptionist.ServiceKey;

/**
 * Routers as behaviours: spawn one like any behaviour and send to its ref; each message goes to one
 * routee (or, for a pool's broadcast predicate, to all).
 *
 * <ul>
 *   <li>{@link #pool}: the router spawns its routees as its own children, watches them, drops a
 *       routee that stops (a failed routee is stopped, unless its behaviour is supervised to
 *       restart or resume) and stops itself when the last one is gone. A restart of the router
 *       starts a fresh pool.
 *   <li>{@link #group}: the router routes to the instances the receptionist lists under a service
 *       key (on a cluster member, every member's instances), following the listing as it changes.
 *       Messages that arrive before the first listing wait, up to {@link
 *       GroupRouter#BUFFER_CAPACITY}; a message with no instance to go to goes to dead letters.
 * </ul>
 *
 * <p>Routing is round-robin unless a router is told otherwise ({@code withRandomRouting}, {@code
 * withConsistentHashingRouting}). The router is an ordinary typed actor: it handles one message at
 * a time, on its dispatcher, and adds one hop to each message. For the classic runtime's routers
 * (smallest-mailbox, scatter-gather, tail-chopping, balancing, resizers), spawn a classic router
 * of typed routees with {@link Adapter#props} and {@code Props.withRouter}.
 */
public final class Routers {
  private Routers() {}

  /**
   * A pool router of {@code poolSize} routees, each running {@code behavior}.
   *
   * @param poolSize how many routees (at least 1)
   * @param behavior each routee's behaviour
   * @param <T> what the routees (and so the router) accept
   * @return the router's behaviour, round-robin; its {@code with} methods return changed copies
   * @throws IllegalArgumentException if {@code poolSize} is under 1
   */
  public static <T> PoolRouter<T> pool(int poolSize, Behavior<T> behavior) {
    return PoolRouterImpl.create(poolSize, behavior);
  }

  /**
   * A group router over the receptionist's instances of {@code key}.
   *
   * @param key the service
   * @param <T> what the service (and so the router) accepts
   * @return the router's behaviour, round-robin; its {@code with} methods return changed copies
   */
  public static <T> GroupRouter<T> group(ServiceKey<T> key) {
    return GroupRouterImpl.create(key);
  }
}
