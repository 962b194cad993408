package dev.troupe.actor.internal.ref;

import dev.troupe.actor.ActorPath;
import dev.troupe.runtime.spi.InternalActorRef;

/**
 * A ref with no cell behind it (dead letters, an ask's reply ref, the root's parent, an absent
 * actor): a fixed path, and {@code tell}/{@code sendSystemMessage} that act directly in the
 * caller's thread.
 */
public abstract class MinimalActorRef extends InternalActorRef {
  private final ActorPath path;

  MinimalActorRef(ActorPath path) {
    this.path = path;
  }

  @Override
  public final ActorPath path() {
    return path;
  }
}
