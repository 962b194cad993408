package dev.troupe.actor.internal;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.internal.dispatch.SystemMessage;
import dev.troupe.actor.spi.Engine;
import dev.troupe.actor.spi.EngineRef;

/**
 * The runtime's view of a ref: it can also take system messages. Local refs, dead letters, ask
 * refs, and (later) remote refs extend it, so user code never sees the difference.
 */
public abstract class InternalActorRef extends ActorRef implements EngineRef {
  final ActorSystemImpl system;

  InternalActorRef(ActorSystemImpl system) {
    this.system = system;
  }

  /**
   * Delivers a system message.
   *
   * @param message the message
   */
  abstract void sendSystemMessage(SystemMessage message);

  /** @return whether the actor is known to have terminated */
  public abstract boolean isTerminated();

  /** Stops the actor asynchronously. */
  void stop() {
    sendSystemMessage(SystemMessages.TERMINATE);
  }

  /** @return the local cell, or {@code null} if this ref has none */
  ActorCell cellOrNull() {
    return null;
  }

  @Override
  public final Engine engine() {
    return system;
  }

  static InternalActorRef internal(ActorRef ref) {
    if (ref instanceof InternalActorRef i) {
      return i;
    }
    throw new IllegalArgumentException("not a Troupe actor ref: " + ref);
  }
}
