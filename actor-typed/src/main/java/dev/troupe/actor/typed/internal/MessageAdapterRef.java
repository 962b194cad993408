package dev.troupe.actor.typed.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import java.util.Objects;

/**
 * The classic ref behind an actor's message adapters: a message sent to it reaches the actor
 * wrapped, and the actor converts it with the function registered for its class. It lives only in
 * the actor's system (its path, {@code <actor>/$adapter}, names no cell).
 */
final class MessageAdapterRef extends ActorRef {
  private final ActorRef owner;
  private final ActorPath path;

  MessageAdapterRef(ActorRef owner) {
    this.owner = owner;
    this.path = owner.path().child("$adapter").withUid(owner.path().uid());
  }

  /** @return the actor whose adapters this ref stands for */
  ActorRef owner() {
    return owner;
  }

  @Override
  public ActorPath path() {
    return path;
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    owner.tell(new Adapted(Objects.requireNonNull(message, "message")), sender);
  }

  /** A message for an adapter, converted in the actor. */
  private static final class Adapted extends InternalMessage {
    private final Object message;

    Adapted(Object message) {
      this.message = message;
    }

    @Override
    public void deliver(TypedActor<?> actor) {
      actor.typedContext().adapt(message);
    }

    @Override
    public String toString() {
      return "Adapted(" + message + ")";
    }
  }
}
