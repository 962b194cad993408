package dev.troupe.actor.internal;

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
final class PromiseActorRef extends MinimalActorRef {
  final CompletableFuture<Object> result = new CompletableFuture<>();

  PromiseActorRef(ActorSystemImpl system, ActorPath path) {
    super(system, path);
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
      system.deadLetters.publish(message, sender, this);
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
