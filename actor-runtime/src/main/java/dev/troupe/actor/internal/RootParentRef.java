package dev.troupe.actor.internal;

import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.runtime.spi.SystemMessage;

/**
 * The parent of the root guardian: it hears the root's termination (the end of the system) and
 * its failures (which end the system too).
 */
final class RootParentRef extends MinimalActorRef {

  RootParentRef(ActorSystemImpl system, ActorPath path) {
    super(system, path);
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    system.deadLetters.tell(message, sender);
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    if (message instanceof SystemMessages.DeathWatchNotification) {
      system.finishTermination();
    } else if (message instanceof SystemMessages.Failed f) {
      system.log.error(f.cause(), "the root guardian failed; terminating the system");
      f.child().stop();
    }
  }

  @Override
  public boolean isTerminated() {
    return system.isTerminated();
  }
}
