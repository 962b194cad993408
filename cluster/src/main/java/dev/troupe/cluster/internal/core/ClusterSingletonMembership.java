package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.singleton.SingletonMembership;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The singletons' membership on a clustered node: the cluster's member events (current state as
 * one snapshot, then every change) and this node's incarnation; another node's manager is at the
 * same path with that node's address.
 */
final class ClusterSingletonMembership implements SingletonMembership {
  private final ClusterImpl cluster;
  /** This node's singleton managers: a leave waits for them to stop their instances. */
  private final Set<ActorRef> managers = ConcurrentHashMap.newKeySet();

  ClusterSingletonMembership(ClusterImpl cluster) {
    this.cluster = cluster;
  }

  @Override
  public UniqueAddress selfNode() {
    return cluster.self;
  }

  @Override
  public void subscribe(ActorRef subscriber) {
    cluster.subscribe(subscriber, ClusterEvent.initialStateAsSnapshot(), ClusterEvent.MemberEvent.class);
  }

  @Override
  public void unsubscribe(ActorRef subscriber) {
    cluster.unsubscribe(subscriber);
  }

  @Override
  public void managerStarted(ActorRef manager) {
    managers.add(manager);
  }

  @Override
  public void managerStopped(ActorRef manager) {
    managers.remove(manager);
  }

  /** @return this node's running singleton managers */
  List<ActorRef> managers() {
    return List.copyOf(managers);
  }

  @Override
  public ActorPath locate(UniqueAddress node, ActorPath localPath) {
    return localPath.withAddress(node.address()).withUid(0);
  }
}
