package dev.troupe.runtime.spi;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.spi.ForwardingRef;
import dev.troupe.actor.spi.AskService;
import dev.troupe.actor.spi.AskServiceRef;

/**
 * The runtime's view of a ref: it can also take system messages. Local refs, dead letters, ask
 * refs, and refs to actors on other nodes (made by an {@link ActorRefProvider}) extend it, so user
 * code never sees the difference.
 *
 * <p>A ref that is not {@link #isLocal() local} is the transport's: its {@code tell} and {@link
 * #sendSystemMessage} hand the message to the wire, and the runtime never looks for a cell behind
 * it. The base class holds no state: each kind of ref keeps the system it belongs to in the type it
 * needs (the engine's own refs keep the concrete system, so that a local {@code tell} reads its
 * fields directly).
 */
public abstract class InternalActorRef extends ActorRef implements AskServiceRef {

  /** For the runtime's refs and for providers' refs to actors elsewhere. */
  protected InternalActorRef() {}

  /**
   * Delivers a system message (watch, unwatch, termination, supervision). Never throws for a
   * stopped actor: what cannot be delivered is handled as the message's kind requires (a watch of
   * a dead actor is answered with its death).
   *
   * @param message the message
   */
  public abstract void sendSystemMessage(SystemMessage message);

  /** @return whether the actor is known to have terminated */
  public abstract boolean isTerminated();

  /**
   * Whether the actor lives in this JVM's system. Death watch subscribes an actor that watches (or
   * is watched by) a non-local ref to "address terminated" news, so that a node that goes away
   * produces {@code Terminated} for all of its actors.
   *
   * @return true for every ref of the runtime itself; false for a provider's remote refs
   */
  public boolean isLocal() {
    return true;
  }

  /** Stops the actor asynchronously. */
  public void stop() {
    sendSystemMessage(SystemMessages.TERMINATE);
  }

  /** @return the system this ref belongs to (the one that made it, not the actor's) */
  public abstract RuntimeSystem system();

  @Override
  public final AskService askService() {
    return system().askService();
  }

  /**
   * The runtime's view of a ref a user passed in.
   *
   * @param ref a ref
   * @return it, as the runtime's ref
   * @throws IllegalArgumentException if it was not made by a Troupe runtime (nor stands for one
   *     that was, as a {@link ForwardingRef})
   */
  public static InternalActorRef internal(ActorRef ref) {
    if (ref instanceof InternalActorRef i) {
      return i;
    }
    if (ref instanceof ForwardingRef f && f.target() instanceof InternalActorRef i) {
      return i;
    }
    throw new IllegalArgumentException("not a Troupe actor ref: " + ref);
  }
}
