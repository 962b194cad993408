package dev.troupe.actor.internal.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.internal.dispatch.MailboxLookup;
import dev.troupe.actor.spi.AskService;
import dev.troupe.routing.BroadcastGroup;
import dev.troupe.routing.BroadcastPool;
import dev.troupe.routing.ConsistentHashingGroup;
import dev.troupe.routing.ConsistentHashingPool;
import dev.troupe.routing.RandomGroup;
import dev.troupe.routing.RandomPool;
import dev.troupe.routing.RoundRobinGroup;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.routing.RouterConfig;
import dev.troupe.routing.Routee;
import dev.troupe.routing.ScatterGatherFirstCompletedGroup;
import dev.troupe.routing.ScatterGatherFirstCompletedPool;
import dev.troupe.routing.SmallestMailboxPool;
import dev.troupe.routing.TailChoppingGroup;
import dev.troupe.routing.TailChoppingPool;

/**
 * Owns the choice of the routee(s) of one message, and the send to them in the sender's thread.
 *
 * <p>Implementations are thread-safe and non-blocking; per-routee-set data is derived once in
 * {@link #prepare}.
 */
interface RoutingLogic {
  /**
   * Derives data from a new routee set (router actor thread, or the creating thread at start).
   *
   * @param routees the new routees
   * @param previous what the previous call returned, or null
   * @return the data {@link #send} gets with these routees
   */
  default Object prepare(Routee[] routees, Object previous) {
    return null;
  }

  /** Called when the router stops: release what the logic holds. */
  default void stopped() {}

  /**
   * Sends a message.
   *
   * @param message the message
   * @param sender the sender, or null
   * @param routees the current routees, not empty
   * @param prepared what {@link #prepare} derived from them
   */
  void send(Object message, ActorRef sender, Routee[] routees, Object prepared);

  /**
   * The logic of every router except {@code BalancingPool}, whose logic comes with its dispatcher
   * team (see {@link RouterState#create}). {@code mailboxes} finds a routee's mailbox, for the
   * logics that read load hints.
   */
  static RoutingLogic of(
      RouterConfig config,
      ActorSystem system,
      AskService asks,
      ActorRef self,
      MailboxLookup mailboxes) {
    if (config instanceof RoundRobinPool || config instanceof RoundRobinGroup) {
      return new RoundRobinLogic();
    } else if (config instanceof RandomPool || config instanceof RandomGroup) {
      return new RandomLogic();
    } else if (config instanceof SmallestMailboxPool) {
      return new SmallestMailboxLogic(mailboxes);
    } else if (config instanceof BroadcastPool || config instanceof BroadcastGroup) {
      return new BroadcastLogic();
    } else if (config instanceof ScatterGatherFirstCompletedPool p) {
      return new ScatterGatherLogic(system, asks, self, p.within());
    } else if (config instanceof ScatterGatherFirstCompletedGroup g) {
      return new ScatterGatherLogic(system, asks, self, g.within());
    } else if (config instanceof TailChoppingPool p) {
      return new TailChoppingLogic(system, asks, self, p.within(), p.interval());
    } else if (config instanceof TailChoppingGroup g) {
      return new TailChoppingLogic(system, asks, self, g.within(), g.interval());
    } else if (config instanceof ConsistentHashingPool p) {
      return new ConsistentHashingLogic(system, self, p.hashMapper(), p.virtualNodesFactor());
    } else if (config instanceof ConsistentHashingGroup g) {
      return new ConsistentHashingLogic(system, self, g.hashMapper(), g.virtualNodesFactor());
    }
    throw new IllegalArgumentException("unsupported router configuration " + config);
  }
}
