package dev.troupe.remote.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.SystemMessages.DeathWatchNotification;
import dev.troupe.runtime.spi.SystemMessages.Failed;
import dev.troupe.runtime.spi.SystemMessages.Recreate;
import dev.troupe.runtime.spi.SystemMessages.Resume;
import dev.troupe.runtime.spi.SystemMessages.Suspend;
import dev.troupe.runtime.spi.SystemMessages.Terminate;
import dev.troupe.runtime.spi.SystemMessages.Unwatch;
import dev.troupe.runtime.spi.SystemMessages.Watch;
import dev.troupe.runtime.spi.SystemMessage;

/**
 * A ref to an actor on another node. {@code tell} serializes the message on the caller's thread
 * and puts it on the peer's ordinary lane; system messages (watch, unwatch, death notices, stop,
 * and deployment and supervision: see {@link #carried}) take the control lane. Neither blocks nor
 * throws (beyond a null message): what cannot be sent is published as a {@code Dropped} event.
 * {@link DeployedActorRef} is the kind the deploying parent holds for a child it created elsewhere.
 *
 * <p>Naming a node costs nothing more than the ref: the {@link Association} with its node is
 * looked up (created if need be) when the ref first sends, and again once the one it holds was
 * retired, so that paths arriving from peers (recipients, senders, refs inside messages) create no
 * per-node state here.
 */
class RemoteActorRef extends InternalActorRef {
  private final RemoteActorRefProvider provider;
  private final ActorPath path;
  private final String serializedPath;
  // The node's association once this ref sent; a racy cache (an Association is safe to publish so)
  private Association association;

  RemoteActorRef(RemoteActorRefProvider provider, ActorPath path) {
    this.provider = provider;
    this.path = path;
    this.serializedPath = path.toSerializationFormat();
  }

  @Override
  public ActorPath path() {
    return path;
  }

  @Override
  public RuntimeSystem system() {
    return provider.system();
  }

  /** @return the path with its uid, as it is sent */
  String serializedPath() {
    return serializedPath;
  }

  /**
   * @return the association with this ref's node, created on first use; null when none can be
   *     created ({@code maximum-associations} reached, nothing idle to retire)
   */
  Association association() {
    Association a = association;
    if (a == null || a.retired()) {
      a = provider.association(path.address());
      association = a;
    }
    return a;
  }

  @Override
  public boolean isLocal() {
    return false;
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    if (message == null) {
      throw new NullPointerException("message must not be null (sent to " + path + ")");
    }
    provider.send(this, message, sender, Lane.ORDINARY);
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    if (message instanceof Watch
        || message instanceof Unwatch
        || message instanceof DeathWatchNotification
        || message instanceof Terminate
        || carried(message)) {
      if (message instanceof Watch w && w.watchee() == this && w.watcher().isLocal()) {
        provider.watchedNodes().watched(this, w.watcher()); // heartbeats to this node from now on
      } else if (message instanceof Unwatch u && u.watcher().isLocal()) {
        provider.watchedNodes().unwatched(this, u.watcher());
      }
      provider.send(this, message, null, Lane.CONTROL);
    } else {
      provider.drops().dropped(message, "this system message is not carried to other nodes yet", null, this);
    }
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  // ---- remote deployment and supervision across nodes (DeploymentSerializer)

  /** @return whether {@code message} is one of deployment's or supervision's, which cross too */
  static boolean carried(SystemMessage message) {
    return message instanceof DeploymentMessages.DeployRequest
        || message instanceof DeploymentMessages.DeployAck
        || message instanceof DeploymentMessages.DeployRefused
        || message instanceof Failed
        || message instanceof Suspend
        || message instanceof Resume
        || message instanceof Recreate;
  }
}
