package dev.troupe.actor.internal;

import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.internal.dispatch.Envelope;
import dev.troupe.actor.internal.dispatch.EnvelopeFactory;
import dev.troupe.runtime.spi.SystemMessage;

/** A ref to an actor of this JVM: a path and the actor's cell. */
final class LocalActorRef extends InternalActorRef {
  final ActorSystemImpl system; // concrete: a local send reads its envelope factory directly
  private final ActorPath path;
  private final ActorCell cell;

  LocalActorRef(ActorSystemImpl system, ActorPath path, ActorCell.Factory cellFactory) {
    this.system = system;
    this.path = path;
    this.cell = cellFactory.create(this);
  }

  @Override
  public ActorPath path() {
    return path;
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    if (message == null) {
      throw new NullPointerException("message must not be null (sent to " + path + ")");
    }
    EnvelopeFactory f = system.envelopeFactory(); // null unless a tracing module is installed
    cell.mailbox.enqueue(f == null ? new Envelope(message, sender) : f.envelope(message, sender, this));
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    cell.mailbox.systemEnqueue(message);
  }

  @Override
  public boolean isTerminated() {
    return cell.mailbox.isClosed();
  }

  @Override
  public ActorSystemImpl system() {
    return system;
  }

  /**
   * The cell behind a ref of this system, for walks of the actor tree: a local actor's, or a
   * router's (selections descend into the routees through the router's cell).
   *
   * @param ref any ref
   * @return the cell, or {@code null} if {@code ref} has none (dead letters, asks, remote refs)
   */
  static ActorCell cellOf(InternalActorRef ref) {
    if (ref instanceof LocalActorRef l) {
      return l.cell;
    }
    if (ref instanceof RoutedActorRef r) {
      return r.routerCell();
    }
    return null;
  }

  /** @return the cell; for routing and tests inside the runtime */
  public ActorCell cell() {
    return cell;
  }
}
