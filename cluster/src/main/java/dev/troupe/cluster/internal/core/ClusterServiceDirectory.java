package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.spi.ServiceDirectory;
import dev.troupe.cluster.Cluster;
import dev.troupe.runtime.spi.RuntimeSystem;

/**
 * Makes the typed receptionist cluster-wide on a cluster member: found by the typed module with
 * {@link java.util.ServiceLoader}, it applies to a system whose provider is the cluster's and hands
 * over the node's directory actor ({@code /cluster/receptionist}, started with the cluster).
 */
public final class ClusterServiceDirectory implements ServiceDirectory {
  /** Used by {@link java.util.ServiceLoader}. */
  public ClusterServiceDirectory() {}

  @Override
  public boolean appliesTo(ActorSystem system) {
    return system instanceof RuntimeSystem r && r.provider() instanceof ClusterProvider;
  }

  @Override
  public ActorRef directory(ActorSystem system) {
    return ((ClusterImpl) Cluster.get(system)).receptionistDirectory();
  }

  /**
   * The directory that makes the publish-subscribe mediator cluster-wide: the same protocol as the
   * receptionist's, at {@code /cluster/pubsub}, started on first use.
   *
   * @param system a cluster member
   * @param role the role of the members that take part; empty = every member
   * @return its node's publish-subscribe directory, or null when the member lacks the role
   * @throws IllegalStateException if the system is not a cluster member
   */
  public static ActorRef pubSubDirectory(ActorSystem system, java.util.Optional<String> role) {
    if (!(system instanceof RuntimeSystem r && r.provider() instanceof ClusterProvider)) {
      throw new IllegalStateException("distributed publish-subscribe needs a cluster member: set troupe.actor.provider"
          + " = cluster (system " + system.name() + " has another provider)");
    }
    ClusterImpl cluster = (ClusterImpl) Cluster.get(system);
    if (role.isPresent() && !cluster.selfMember().hasRole(role.get())) {
      return null;
    }
    return cluster.pubSubDirectory(role);
  }
}
