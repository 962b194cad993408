package dev.troupe.actor.internal.testing;

import dev.troupe.actor.Actor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.internal.ActorCell;

/**
 * What the testkit's {@code TestActorRef} needs of the engine (this package is exported to the
 * testkit alone): the actor instance behind a local ref, and one message handed to it on the
 * calling thread with what it throws reaching the caller.
 */
public final class TestHooks {
  private TestHooks() {}

  private static ActorCell cell(ActorRef ref) {
    ActorCell c = ActorCell.ofLocalRef(ref);
    if (c == null) {
      throw new IllegalArgumentException(ref + " is not a local actor of this engine (a TestActorRef needs one)");
    }
    return c;
  }

  /**
   * @param ref a local actor's ref
   * @return its current actor instance
   * @throws IllegalArgumentException if the ref is not a local actor's
   * @throws IllegalStateException if the actor is not created yet, failed to start, or has stopped
   */
  public static Actor underlyingActor(ActorRef ref) {
    Actor a = cell(ref).actorNow();
    if (a == null) {
      throw new IllegalStateException(ref + " has no actor instance now (not started, failed to start, or stopped)");
    }
    return a;
  }

  /**
   * Hands {@code message} to the actor on the calling thread; what it throws reaches the caller.
   *
   * @param ref a local actor's ref, whose mailbox runs on the calling thread
   * @param message the message
   * @param sender its sender
   * @throws Exception what the actor threw
   */
  public static void receive(ActorRef ref, Object message, ActorRef sender) throws Exception {
    underlyingActor(ref); // a clear error when there is none
    cell(ref).receiveNow(message, sender);
  }
}
