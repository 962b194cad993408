package dev.troupe.actor.internal.ref;


import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Status;
import dev.troupe.runtime.spi.SystemMessage;
import java.util.concurrent.CompletableFuture;

/**
 * The temporary reply ref of an ask (and of gracefulStop): the first message completes the future;
 * later ones go to dead letters. It lives under {@code /temp} but is not registered anywhere, so
 * there is nothing to clean up when it completes or times out.
 */
public final class PromiseActorRef extends MinimalActorRef {
  private final DeadLettersRef deadLetters;
  /** Completes with the first message (or fails with a {@code Status.Failure}'s cause). */
  public final CompletableFuture<Object> result = new CompletableFuture<>();

  /**
   * @param deadLetters the system's dead letters, where messages after the first go
   * @param path its path under {@code /temp}
   */
  public PromiseActorRef(DeadLettersRef deadLetters, ActorPath path) {
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
    boolean completed =
        message instanceof Status.Failure f
            ? result.completeExceptionally(f.cause())
            : result.complete(message);
    if (!completed) {
      deadLetters.publish(message, sender, this, DeadLetterReason.RECIPIENT_STOPPED);
    }
  }

  @Override
  public void sendSystemMessage(SystemMessage message) {
    if (message instanceof SystemMessages.DeathWatchNotification) {
      result.complete(Boolean.TRUE);
    }
  }

  @Override
  public boolean isTerminated() {
    return result.isDone();
  }
}
