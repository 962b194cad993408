package dev.troupe.remote.internal.association;

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
import dev.troupe.remote.internal.transport.Lane;

/**
 * A ref to an actor on another node. {@code tell} serializes the message on the caller's thread
 * and puts it on the peer's ordinary lane ({@link Associations#send}), or on its large-message lane
 * when the path matches {@code troupe.remote.large-message-destinations} (decided once, here);
 * system messages (watch,
 * unwatch, death notices, stop, and deployment and supervision: see {@link #carried}) take the
 * control lane. Neither blocks nor throws (beyond a null message): what cannot be sent is
 * published as a {@code Dropped} event. The deployment layer's {@code DeployedActorRef} is the
 * kind the deploying parent holds for a child it created elsewhere.
 *
 * <p>Naming a node costs nothing more than the ref: the {@link Association} with its node is
 * looked up (created if need be) when the ref first sends, and again once the one it holds was
 * retired, so that paths arriving from peers (recipients, senders, refs inside messages) create no
 * per-node state here.
 */
public class RemoteActorRef extends InternalActorRef {
  /**
   * A system message of remoting's own (remote deployment's) that crosses to other nodes on the
   * control lane, like the runtime's watch, death notices and supervision.
   */
  public interface Carried {}

  private final Associations associations;
  private final ActorPath path;
  private final String serializedPath;
  private final Lane lane; // of its user messages: ordinary, or large-message for large-message-destinations
  // The node's association once this ref sent; a racy cache (an Association is safe to publish so)
  private Association association;

  public RemoteActorRef(Associations associations, ActorPath path) {
    this.associations = associations;
    this.path = path;
    this.serializedPath = path.toSerializationFormat();
    this.lane = associations.laneFor(path);
  }

  @Override
  public ActorPath path() {
    return path;
  }

  @Override
  public RuntimeSystem system() {
    return associations.system();
  }

  /** @return the path with its uid, as it is sent */
  public String serializedPath() {
    return serializedPath;
  }

  /**
   * @return the association with this ref's node, created on first use; null when none can be
   *     created ({@code maximum-associations} reached, nothing idle to retire)
   */
  public Association association() {
    Association a = association;
    if (a == null || a.retired()) {
      a = associations.association(path.address());
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
    associations.send(this, message, sender, lane);
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    if (message instanceof Watch
        || message instanceof Unwatch
        || message instanceof DeathWatchNotification
        || message instanceof Terminate
        || carried(message)) {
      if (message instanceof Watch w && w.watchee() == this && w.watcher().isLocal()) {
        associations.watches().watched(this, w.watcher()); // heartbeats to this node from now on
      } else if (message instanceof Unwatch u && u.watcher().isLocal()) {
        associations.watches().unwatched(this, u.watcher());
      }
      associations.send(this, message, null, Lane.CONTROL);
    } else {
      associations.drops().dropped(message, "this system message is not carried to other nodes yet", null, this);
    }
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  /**
   * @return whether {@code message} is one of remote deployment's ({@link Carried}) or
   *     supervision's, which cross too
   */
  public static boolean carried(SystemMessage message) {
    return message instanceof Carried
        || message instanceof Failed
        || message instanceof Suspend
        || message instanceof Resume
        || message instanceof Recreate;
  }
}
