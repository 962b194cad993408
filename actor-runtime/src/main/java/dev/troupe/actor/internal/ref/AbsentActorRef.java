package dev.troupe.actor.internal.ref;


import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.runtime.spi.SystemMessage;

/**
 * A ref to a path where no actor lives (never did, or no longer with that uid, or on a node this
 * system cannot reach): it keeps the path it was asked for, sends what it is told to dead letters
 * (an {@code Identify} is answered with an empty identity), and answers a watch at once with
 * {@code Terminated(existenceConfirmed = false)}.
 */
public final class AbsentActorRef extends MinimalActorRef {
  private final DeadLettersRef deadLetters;

  /**
   * @param deadLetters the system's dead letters, where its messages go
   * @param path the path asked for
   */
  public AbsentActorRef(DeadLettersRef deadLetters, ActorPath path) {
    super(path);
    this.deadLetters = deadLetters;
  }

  @Override
  public RuntimeSystem system() {
    return deadLetters.system();
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    if (message == null) {
      throw new NullPointerException("message must not be null (sent to " + path() + ")");
    }
    deadLetters.publish(message, sender, this, DeadLetterReason.NO_SUCH_ACTOR);
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    if (message instanceof SystemMessages.Watch w && w.watcher() != this) {
      w.watcher().sendSystemMessage(new SystemMessages.DeathWatchNotification(this, false, false));
    }
  }

  @Override
  public boolean isTerminated() {
    return true;
  }
}
