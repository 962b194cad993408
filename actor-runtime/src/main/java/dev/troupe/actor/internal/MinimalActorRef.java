package dev.troupe.actor.internal;

import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.actor.ActorPath;

/**
 * A ref with no cell behind it (dead letters, an ask's reply ref, the root's parent): a fixed
 * path, and {@code tell}/{@code sendSystemMessage} that act directly in the caller's thread.
 */
abstract class MinimalActorRef extends InternalActorRef {
  final ActorSystemImpl system;
  private final ActorPath path;

  MinimalActorRef(ActorSystemImpl system, ActorPath path) {
    this.system = system;
    this.path = path;
  }

  @Override
  public final ActorSystemImpl system() {
    return system;
  }

  @Override
  public final ActorPath path() {
    return path;
  }
}
