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
}
