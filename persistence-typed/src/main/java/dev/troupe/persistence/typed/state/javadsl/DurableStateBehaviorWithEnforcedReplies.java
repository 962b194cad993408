package dev.troupe.persistence.typed.state.javadsl;

import dev.troupe.persistence.typed.PersistenceId;

/**
 * A {@link DurableStateBehavior} whose command handler must reply to every command: it is a
 * {@link CommandHandlerWithReply}, whose cases answer with a {@link ReplyEffect}. The compiler
 * enforces it: {@code Effect().persist(state)} is a plain {@link Effect} and only becomes a {@code
 * ReplyEffect} with {@code thenReply(replyTo, state -> reply)} or {@code thenNoReply()}; {@code
 * Effect().reply(replyTo, reply)}, {@code Effect().noReply()} and {@code Effect().stash()} are
 * {@code ReplyEffect}s already. The behaviour runs as any other durable-state one.
 *
 * <p>What the compiler cannot see: a command no case matches is unhandled and gets no reply; a
 * stashed command gets its reply when it is handled again, and none if it goes to dead letters.
 *
 * @param <C> the commands
 * @param <S> the state
 */
public abstract class DurableStateBehaviorWithEnforcedReplies<C, S> extends DurableStateBehavior<C, S> {
  /** @param persistenceId the id of the actor's state in the store */
  protected DurableStateBehaviorWithEnforcedReplies(PersistenceId persistenceId) {
    super(persistenceId);
  }

  /**
   * @return what the actor does with each command, a reply included; called once per actor start
   */
  @Override
  public abstract CommandHandlerWithReply<C, S> commandHandler();

  /** @return a builder of the command handler, whose cases answer with {@link ReplyEffect}s */
  protected final CommandHandlerWithReplyBuilder<C, S> newCommandHandlerWithReplyBuilder() {
    return new CommandHandlerWithReplyBuilder<>();
  }
}
