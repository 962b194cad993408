package dev.troupe.actor.typed.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import java.util.Objects;

/**
 * The classic side of a typed system's {@code ignoreRef()}: every message told to it is dropped
 * on the teller's thread, with no dead letter and no log. Local to its system: {@link TypedRefView}
 * refuses to send it to another node (where it would stand for nothing).
 */
final class IgnoreRef extends ActorRef {
  /** The name under the system's root. */
  static final String NAME = "ignore";

  private final ActorPath path;

  IgnoreRef(dev.troupe.actor.ActorSystem system) {
    this.path = system.deadLetters().path().root().child(NAME);
  }

  @Override
  public ActorPath path() {
    return path;
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return "Ignore(" + path + ")";
  }
}
