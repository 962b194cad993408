package dev.troupe.persistence.typed.javadsl;

/**
 * A {@link CommandHandler} that answers every command with a {@link ReplyEffect}, so that the
 * compiler checks that each command handled gets a reply, or is declared to get none ({@code
 * Effect().noReply()}, {@code thenNoReply()}). The handler of an {@link
 * EventSourcedBehaviorWithEnforcedReplies}; build one with {@link
 * EventSourcedBehaviorWithEnforcedReplies#newCommandHandlerWithReplyBuilder()}. Being a {@code
 * CommandHandler}, it runs as any other: enforcing costs nothing per command.
 *
 * @param <C> the commands
 * @param <E> the events
 * @param <S> the state
 */
@FunctionalInterface
public interface CommandHandlerWithReply<C, E, S> extends CommandHandler<C, E, S> {
  /**
   * @param state the current state
   * @param command the command
   * @return what to do, a reply (or no reply, declared) included
   */
  @Override
  ReplyEffect<E, S> apply(S state, C command);
}
