package dev.troupe.actor.spi;

import dev.troupe.actor.ActorRef;

/**
 * A ref that stands for another one (the testkit's {@code TestActorRef}): where the runtime needs a
 * ref of its own making (to watch an actor, say), it takes the one this stands for.
 */
public interface ForwardingRef {
  /** @return the ref this stands for */
  ActorRef target();
}
