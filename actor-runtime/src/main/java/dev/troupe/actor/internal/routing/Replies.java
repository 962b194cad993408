package dev.troupe.actor.internal.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Status;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/** Passes the outcome of a first-reply-wins exchange to the original sender. */
final class Replies {
  private Replies() {}

  static void pipe(CompletionStage<Object> result, ActorSystem system, ActorRef sender, ActorRef router) {
    ActorRef to = sender == null ? system.deadLetters() : sender;
    result.whenComplete(
        (reply, failure) -> {
          if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
            to.tell(new Status.Failure(cause), router);
          } else {
            to.tell(reply, router);
          }
        });
  }
}
