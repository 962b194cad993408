package dev.troupe.cluster.internal.core;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterSettings;
import dev.troupe.cluster.spi.MembershipProvider;
import dev.troupe.remote.spi.RemoteProvider;
import dev.troupe.runtime.spi.ActorRefProvider;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.LocalActorRefProvider;
import dev.troupe.runtime.spi.RouteeNodes;
import dev.troupe.runtime.spi.RuntimeSystem;

/**
 * The system's provider when {@code troupe.actor.provider = cluster}: remoting's provider, wrapped.
 * Every provider method goes to remoting; {@link #init()} also starts the cluster ({@link
 * ClusterImpl} and its core actor), and {@link #shutdown()} stops the membership engine before
 * remoting closes.
 */
public final class ClusterProvider implements ActorRefProvider {
  private final RuntimeSystem system;
  private final RemoteProvider remote;
  private final ClusterSettings settings;
  private final MembershipProvider engine;
  private volatile ClusterImpl cluster;
  private final ClusterRouteeNodes routeeNodes = new ClusterRouteeNodes(this);

  ClusterProvider(
      RuntimeSystem system, RemoteProvider remote, ClusterSettings settings, MembershipProvider engine) {
    this.system = system;
    this.remote = remote;
    this.settings = settings;
    this.engine = engine;
  }

  /**
   * @return the system's cluster
   * @throws IllegalStateException while the system is still being created
   */
  public Cluster cluster() {
    ClusterImpl c = cluster;
    if (c == null) {
      throw new IllegalStateException("the cluster of " + system.actorSystem().name() + " has not started yet");
    }
    return c;
  }

  /** @return the remote provider this one wraps */
  RemoteProvider remote() {
    return remote;
  }

  @Override
  public Address address() {
    return remote.address();
  }

  @Override
  public LocalActorRefProvider local() {
    return remote.local();
  }

  @Override
  public void init() {
    remote.init();
    ClusterImpl c = new ClusterImpl(system, this, settings, engine);
    cluster = c;
    c.start();
  }

  @Override
  public InternalActorRef resolveActorRef(ActorPath path) {
    return remote.resolveActorRef(path);
  }

  @Override
  public InternalActorRef rootGuardianAt(Address address) {
    return remote.rootGuardianAt(address);
  }

  @Override
  public InternalActorRef actorOf(InternalActorRef parent, Props props, ActorPath path, Address target) {
    return remote.actorOf(parent, props, path, target);
  }

  /** Cluster-aware routers learn the eligible members here. */
  @Override
  public RouteeNodes routeeNodes() {
    return routeeNodes;
  }

  @Override
  public void shutdown() {
    try {
      ClusterImpl c = cluster;
      if (c != null) {
        c.shutdown();
      } else {
        engine.close();
      }
    } finally {
      remote.shutdown();
    }
  }
}
