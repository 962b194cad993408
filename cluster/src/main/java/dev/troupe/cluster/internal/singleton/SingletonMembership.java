package dev.troupe.cluster.internal.singleton;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.cluster.UniqueAddress;

/**
 * The membership as one node's singleton managers and proxies see it. The cluster wiring
 * implements it from the agreed membership; tests implement it by hand, so that several managers
 * in one actor system stand for several nodes.
 *
 * <p>What an implementation must provide:
 *
 * <ul>
 *   <li>{@link #subscribe}: the subscriber gets the current members at once as one {@link
 *       dev.troupe.cluster.CurrentClusterState} and then every {@link
 *       dev.troupe.cluster.ClusterEvent.MemberEvent}, in order, none skipped or repeated (what {@code
 *       Cluster.subscribe(ref, initialStateAsSnapshot(), MemberEvent.class)} delivers). Every node
 *       hears the same changes in the same order; some may hear them later.
 *   <li>A member that leaves gracefully must stay {@code LEAVING} until its managers have handed
 *       their singletons over (or a bound passes): its exit waits for them.
 *   <li>{@link #locate}: where the actor at a path on this node is on another node; in a cluster
 *       every node names its managers alike, so it is the same path with the other node's
 *       address.
 * </ul>
 */
public interface SingletonMembership {
  /** @return this node's incarnation */
  UniqueAddress selfNode();

  /**
   * Sends {@code subscriber} the current members now and every change after.
   *
   * @param subscriber a manager or proxy
   */
  void subscribe(ActorRef subscriber);

  /**
   * Stops telling {@code subscriber}.
   *
   * @param subscriber a subscribed actor
   */
  void unsubscribe(ActorRef subscriber);

  /**
   * A manager started on this node: the cluster wiring asks it {@link ManagerActor.WhenHandedOver}
   * before this node leaves.
   *
   * @param manager the manager
   */
  default void managerStarted(ActorRef manager) {}

  /**
   * A manager of this node stopped.
   *
   * @param manager the manager
   */
  default void managerStopped(ActorRef manager) {}

  /**
   * @param node a member
   * @param localPath the path of an actor on this node
   * @return the path of the actor in the same place on {@code node}
   */
  ActorPath locate(UniqueAddress node, ActorPath localPath);
}
