package dev.troupe.persistence.typed.javadsl;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.persistence.typed.internal.EffectImpl;
import java.util.List;
import java.util.Objects;

/**
 * The effects a command handler may answer with ({@link EventSourcedBehavior#Effect()}). Those
 * known to reply ({@link #reply reply}, {@link #noReply()}, {@link #stash()}) are {@link
 * ReplyEffect}s, as is any effect after {@code thenReply} or {@code thenNoReply()}.
 *
 * @param <E> the events
 * @param <S> the state
 */
public final class EffectFactories<E, S> {
  private static final EffectFactories<?, ?> INSTANCE = new EffectFactories<>();

  private EffectFactories() {}

  @SuppressWarnings("unchecked")
  static <E, S> EffectFactories<E, S> instance() {
    return (EffectFactories<E, S>) INSTANCE;
  }

  /**
   * @param event an event to store and apply; commands wait until it is
   * @return the effect
   */
  public Effect<E, S> persist(E event) {
    return EffectImpl.persist(List.of(Objects.requireNonNull(event, "event")));
  }

  /**
   * @param events events to store all together or none, then apply in order
   * @return the effect ({@link #none()} for an empty list)
   */
  public Effect<E, S> persist(List<? extends E> events) {
    return EffectImpl.persist(List.copyOf(events));
  }

  /** @return nothing to persist (the {@code then...} steps still run) */
  public Effect<E, S> none() {
    return EffectImpl.none();
  }

  /** @return the command is unhandled (published as such) */
  public Effect<E, S> unhandled() {
    return EffectImpl.unhandled();
  }

  /** @return the actor stops */
  public Effect<E, S> stop() {
    return EffectImpl.<E, S>none().thenStop();
  }

  /**
   * The command waits, to be handled again after {@link #unstashAll()} or {@link
   * Effect#thenUnstashAll()}: it gets its reply then, so this is a {@link ReplyEffect}. A command
   * stashed beyond {@code troupe.persistence.typed.stash-capacity} goes to dead letters instead.
   *
   * @return the command is stashed
   */
  public ReplyEffect<E, S> stash() {
    return EffectImpl.stash();
  }

  /** @return the stashed commands are handled, oldest first */
  public Effect<E, S> unstashAll() {
    return EffectImpl.<E, S>none().thenUnstashAll();
  }

  /**
   * @param replyTo who gets the reply
   * @param reply the reply
   * @param <R> its type
   * @return nothing persisted, a reply sent
   */
  public <R> ReplyEffect<E, S> reply(ActorRef<R> replyTo, R reply) {
    Objects.requireNonNull(reply, "reply");
    return EffectImpl.<E, S>none().thenReply(replyTo, s -> reply);
  }

  /**
   * Nothing persisted and no reply, on purpose: for a command that asks for none (or is answered
   * by someone else). Same as {@code none().thenNoReply()}.
   *
   * @return nothing persisted, as an effect that replies
   */
  public ReplyEffect<E, S> noReply() {
    return EffectImpl.<E, S>none().thenNoReply();
  }
}
