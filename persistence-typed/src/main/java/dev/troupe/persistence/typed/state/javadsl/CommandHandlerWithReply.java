package dev.troupe.persistence.typed.state.javadsl;

/**
 * A {@link CommandHandler} that answers every command with a {@link ReplyEffect}, so that the
 * compiler checks that each command handled gets a reply, or is declared to get none. The handler
 * of a {@link DurableStateBehaviorWithEnforcedReplies}; build one with {@link
 * DurableStateBehaviorWithEnforcedReplies#newCommandHandlerWithReplyBuilder()}.
 *
 * @param <C> the commands
 * @param <S> the state
 */
@FunctionalInterface
public interface CommandHandlerWithReply<C, S> extends CommandHandler<C, S> {
  /**
   * @param state the current state
   * @param command the command
   * @return what to do, a reply (or no reply, declared) included
   */
  @Override
  ReplyEffect<S> apply(S state, C command);
}
