package dev.troupe.actor;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * A path pattern that may match any number of actors, from {@link ActorSystem#actorSelection} or
 * {@link ActorContext#actorSelection}. Elements may use the wildcards {@code *} (any sequence) and
 * {@code ?} (one character), and {@code ..} for the parent. A message told to a selection is
 * delivered to every actor that matches when it arrives; nothing is delivered (and nothing goes to
 * dead letters) if none matches, unless the pattern has no wildcard, in which case it goes to dead
 * letters.
 *
 * <p>To get a ref, send {@link Identify} or use {@link #resolveOne(Duration)}.
 */
public abstract class ActorSelection {

  /** For the runtime's implementations. */
  protected ActorSelection() {}

  /**
   * Sends a message to every matching actor.
   *
   * @param message the message
   * @param sender the sender the recipients see
   */
  public abstract void tell(Object message, ActorRef sender);

  /**
   * Sends a message to every matching actor, keeping the current message's sender.
   *
   * @param message the message
   * @param context the forwarding actor's context
   */
  public final void forward(Object message, ActorContext context) {
    tell(message, context.getSender());
  }

  /**
   * Resolves the selection to one actor.
   *
   * @param timeout how long to wait for an answer
   * @return a stage completed with a matching actor, or failed with {@link ActorNotFound}; once
   *     the system has terminated, failed at once with an {@link IllegalStateException} naming it
   */
  public abstract CompletionStage<ActorRef> resolveOne(Duration timeout);

  /** @return the ref that relative elements are resolved from */
  public abstract ActorRef anchor();

  /** @return the pattern below the anchor, e.g. {@code /user/work*} */
  public abstract String pathString();

  @Override
  public String toString() {
    return "ActorSelection[anchor=" + anchor() + ", path=" + pathString() + "]";
  }
}
