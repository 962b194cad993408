package dev.troupe.persistence.typed.javadsl;

import dev.troupe.actor.typed.ActorRef;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What a command handler answers: events to persist (or none), then what to do once they are
 * stored. Made by {@link EventSourcedBehavior#Effect()}; immutable, each {@code then...} returns a
 * new effect with one more step. The steps run in order, after the events are stored and applied
 * to the state, and get that state.
 *
 * <p>An effect that replies is a {@link ReplyEffect}: {@link #thenReply thenReply} and {@link
 * #thenNoReply()} make one, and the command handler of an {@link
 * EventSourcedBehaviorWithEnforcedReplies} must answer with one.
 *
 * @param <E> the events
 * @param <S> the state
 */
public interface Effect<E, S> {
  /**
   * @param callback runs with the state after the events
   * @return this effect and then the callback
   */
  Effect<E, S> thenRun(Consumer<S> callback);

  /**
   * @param replyTo who gets the reply
   * @param reply makes it from the state after the events
   * @param <R> the reply's type
   * @return this effect and then the reply: an effect that replies
   */
  <R> ReplyEffect<E, S> thenReply(ActorRef<R> replyTo, Function<S, R> reply);

  /**
   * Declares that the command gets no reply (a command that asks for none, or whose reply another
   * step or actor sends): nothing runs for it, it only makes this effect a {@link ReplyEffect}.
   *
   * @return this effect, as one that replies
   */
  ReplyEffect<E, S> thenNoReply();

  /**
   * The actor stops once every step of this effect has run, those after this one included (a
   * reply added after {@code thenStop()} is still sent); stashed commands are not handled.
   *
   * @return this effect and then the actor stops
   */
  Effect<E, S> thenStop();

  /** @return this effect and then the stashed commands are handled, oldest first */
  Effect<E, S> thenUnstashAll();
}
