package dev.troupe.persistence.typed.javadsl;

import dev.troupe.persistence.typed.PersistenceId;

/**
 * An {@link EventSourcedBehavior} whose command handler must reply to every command: it is a
 * {@link CommandHandlerWithReply}, whose cases answer with a {@link ReplyEffect}. The compiler
 * enforces it: {@code Effect().persist(event)} is a plain {@link Effect} and only becomes a
 * {@code ReplyEffect} with {@code thenReply(replyTo, state -> reply)} or, for a command that wants
 * no reply, {@code thenNoReply()}; {@code Effect().reply(replyTo, reply)}, {@code
 * Effect().noReply()} and {@code Effect().stash()} are {@code ReplyEffect}s already. A forgotten
 * reply is a compile error rather than an asker's timeout. The behaviour runs as any other event
 * sourced one, at no extra cost per command.
 *
 * <pre>{@code
 * public final class Counter extends EventSourcedBehaviorWithEnforcedReplies<Counter.Command, Counter.Added, Integer> {
 *   ...
 *   @Override public CommandHandlerWithReply<Command, Added, Integer> commandHandler() {
 *     return newCommandHandlerWithReplyBuilder().forAnyState()
 *         .onCommand(Add.class, (total, c) -> Effect().persist(new Added(c.n())).thenReply(c.replyTo(), t -> t))
 *         .onCommand(Get.class, (total, c) -> Effect().reply(c.replyTo(), total))
 *         .build();
 *   }
 * }
 * }</pre>
 *
 * <p>What the compiler cannot see: a command no case matches is unhandled and gets no reply; a
 * stashed command gets its reply when it is handled again, and none if it goes to dead letters (the
 * stash is full, or the actor stops first).
 *
 * @param <C> the commands
 * @param <E> the events
 * @param <S> the state
 */
public abstract class EventSourcedBehaviorWithEnforcedReplies<C, E, S> extends EventSourcedBehavior<C, E, S> {
  /** @param persistenceId the id of the actor's history in the journal */
  protected EventSourcedBehaviorWithEnforcedReplies(PersistenceId persistenceId) {
    super(persistenceId);
  }

  /**
   * @return what the actor does with each command, a reply included; called once per actor start
   */
  @Override
  public abstract CommandHandlerWithReply<C, E, S> commandHandler();

  /** @return a builder of the command handler, whose cases answer with {@link ReplyEffect}s */
  protected final CommandHandlerWithReplyBuilder<C, E, S> newCommandHandlerWithReplyBuilder() {
    return new CommandHandlerWithReplyBuilder<>();
  }
}
