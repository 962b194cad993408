package dev.troupe.actor.internal.ref;

import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.actor.LoggingAdapter;
import java.util.function.BooleanSupplier;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.runtime.spi.SystemMessage;

/**
 * The parent of the root guardian: it hears the root's termination (the end of the system) and
 * its failures (which end the system too).
 */
public final class RootParentRef extends MinimalActorRef {
  private final DeadLettersRef deadLetters;
  private final Runnable finishTermination;
  private final BooleanSupplier terminated;
  private final LoggingAdapter log;

  /**
   * @param deadLetters the system's dead letters, where messages to it go
   * @param path its path
   * @param finishTermination ends the system once the root guardian has terminated
   * @param terminated whether the system has terminated
   * @param log the system's log
   */
  public RootParentRef(
      DeadLettersRef deadLetters,
      ActorPath path,
      Runnable finishTermination,
      BooleanSupplier terminated,
      LoggingAdapter log) {
    super(path);
    this.deadLetters = deadLetters;
    this.finishTermination = finishTermination;
    this.terminated = terminated;
    this.log = log;
  }

  @Override
  public RuntimeSystem system() {
    return deadLetters.system();
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    deadLetters.tell(message, sender);
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    if (message instanceof SystemMessages.DeathWatchNotification) {
      finishTermination.run();
    } else if (message instanceof SystemMessages.Failed f) {
      log.error(f.cause(), "the root guardian failed; terminating the system");
      f.child().stop();
    }
  }

  @Override
  public boolean isTerminated() {
    return terminated.getAsBoolean();
  }
}
