package dev.troupe.remote.internal.deploy;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Address;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.LocalActorRefProvider;
import dev.troupe.remote.internal.association.Associations;
import dev.troupe.remote.internal.transport.Drops;
import dev.troupe.remote.internal.watch.WatchedNodes;

/**
 * What remote deployment needs of the node it runs on: implemented by the remote provider, which
 * sits above this layer and hands itself to {@link RemoteDaemon}.
 */
public interface DeploymentHost {
  RuntimeSystem system();

  /** @return this node's address */
  Address address();

  /** @return the provider of this node's own actors (deployed children are created there) */
  LocalActorRefProvider local();

  /** @return the ref {@code path} names, here or on another node */
  InternalActorRef resolveActorRef(ActorPath path);

  Drops drops();

  /** @return death watch across nodes: a deployment's target node is watched while it is pending */
  WatchedNodes watchedNodes();

  /** @return this node's associations, through which a deployed child's ref sends */
  Associations associations();
}
