package dev.troupe.persistence.typed.state.javadsl;

import dev.troupe.actor.typed.ActorRef;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What the command handler of a {@link DurableStateBehavior} answers: a new state to persist (or
 * none, or a delete), then what to do once it is stored. Made by {@link
 * DurableStateBehavior#Effect()}; immutable, each {@code then...} returns a new effect with one more
 * step. The steps run in order, after the state is stored, and get the new state.
 *
 * <p>An effect that replies is a {@link ReplyEffect}: {@link #thenReply thenReply} and {@link
 * #thenNoReply()} make one, and the command handler of a {@link
 * DurableStateBehaviorWithEnforcedReplies} must answer with one.
 *
 * @param <S> the state
 */
public interface Effect<S> {
  /**
   * @param callback runs with the state after the write
   * @return this effect and then the callback
   */
  Effect<S> thenRun(Consumer<S> callback);

  /**
   * @param replyTo who gets the reply
   * @param reply makes it from the state after the write
   * @param <R> the reply's type
   * @return this effect and then the reply: an effect that replies
   */
  <R> ReplyEffect<S> thenReply(ActorRef<R> replyTo, Function<S, R> reply);

  /**
   * Declares that the command gets no reply: nothing runs for it, it only makes this effect a
   * {@link ReplyEffect}.
   *
   * @return this effect, as one that replies
   */
  ReplyEffect<S> thenNoReply();

  /**
   * The actor stops once every step of this effect has run, those after this one included (a
   * reply added after {@code thenStop()} is still sent); stashed commands are not handled.
   *
   * @return this effect and then the actor stops
   */
  Effect<S> thenStop();

  /** @return this effect and then the stashed commands are handled, oldest first */
  Effect<S> thenUnstashAll();
}
