package dev.troupe.remote.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.SystemMessage;
import dev.troupe.serialization.Serialized;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What two nodes' {@link RemoteDaemon}s tell each other about remote deployment, on the control
 * lane (serialized by {@link DeploymentSerializer}).
 *
 * <p>The deploying node sends a {@link DeployRequest} to the target's {@code /remote}; the target
 * answers with a {@link DeployAck} once the actor exists, or a {@link DeployRefused} with the
 * reason (also when the actor's constructor fails there).
 */
final class DeploymentMessages {
  private DeploymentMessages() {}

  /**
   * Create an actor on the receiving node. Its constructor arguments stay in their serialized form
   * until the receiver has accepted the class: a class that is not allowed never has its arguments
   * read.
   *
   * @param path the actor's path on the receiving node, with its uid
   * @param parent its parent (and supervisor) on the deploying node
   * @param className the fully qualified name of its class
   * @param args each constructor argument as its serializer wrote it; null elements for null
   * @param dispatcher the dispatcher id of its props, or null
   * @param mailbox the mailbox id of its props, or null
   */
  record DeployRequest(
      ActorPath path, InternalActorRef parent, String className, List<Serialized> args, String dispatcher, String mailbox)
      implements SystemMessage {
    DeployRequest {
      args = Collections.unmodifiableList(new ArrayList<>(args)); // nulls allowed, unlike List.copyOf
    }
  }

  /**
   * The actor of a {@link DeployRequest} exists (its constructor has not necessarily run yet):
   * messages to it may go.
   *
   * @param path its path, with its uid
   */
  record DeployAck(ActorPath path) implements SystemMessage {}

  /**
   * The receiving node did not create the actor of a {@link DeployRequest}, or its constructor
   * failed there.
   *
   * @param path its path, with its uid
   * @param parent its parent on the deploying node
   * @param reason why, for the deploying node's log
   */
  record DeployRefused(ActorPath path, InternalActorRef parent, String reason) implements SystemMessage {}
}
