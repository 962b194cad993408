package dev.troupe.actor.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.internal.dispatch.Envelope;
import dev.troupe.actor.internal.dispatch.EnvelopeFactory;
import dev.troupe.actor.internal.dispatch.SystemMessage;

/** A ref to an actor of this JVM: a path and the actor's cell. */
public final class LocalActorRef extends InternalActorRef {
  private final ActorPath path;
  private final ActorCell cell;

  LocalActorRef(ActorSystemImpl system, ActorPath path, ActorCell.Factory cellFactory) {
    super(system);
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
  ActorCell cellOrNull() {
    return cell;
  }

  /** @return the cell; for routing and tests inside the runtime */
  public ActorCell cell() {
    return cell;
  }
}
