package dev.troupe.samples.persistence;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.persistence.typed.PersistenceId;
import dev.troupe.persistence.typed.RecoveryCompleted;
import dev.troupe.persistence.typed.javadsl.CommandHandler;
import dev.troupe.persistence.typed.javadsl.EventHandler;
import dev.troupe.persistence.typed.javadsl.EventSourcedBehavior;
import dev.troupe.persistence.typed.javadsl.RetentionCriteria;
import dev.troupe.persistence.typed.javadsl.SignalHandler;

/**
 * A bank account as an event-sourced behaviour: deposits and withdrawals are events, the balance is
 * their sum, and a withdrawal that would overdraw is refused without an event.
 */
public final class Account extends EventSourcedBehavior<Account.Command, Account.Event, Long> {
  /** What the account is told. */
  public sealed interface Command {}

  /**
   * @param amount cents to add
   * @param replyTo gets the outcome
   */
  public record Deposit(long amount, ActorRef<Outcome> replyTo) implements Command {}

  /**
   * @param amount cents to take
   * @param replyTo gets the outcome
   */
  public record Withdraw(long amount, ActorRef<Outcome> replyTo) implements Command {}

  /** What the account stores. */
  public sealed interface Event {}

  /** @param amount cents added */
  public record Deposited(long amount) implements Event {}

  /** @param amount cents taken */
  public record Withdrawn(long amount) implements Event {}

  /**
   * The answer to a command.
   *
   * @param accepted whether it changed the balance
   * @param balance the balance after it
   */
  public record Outcome(boolean accepted, long balance) {}

  private final int snapshotEvery;
  private final ActorRef<String> log;

  /**
   * @param id the account's id
   * @param snapshotEvery a snapshot every this many events
   * @param log gets a line when the account has recovered
   */
  public Account(String id, int snapshotEvery, ActorRef<String> log) {
    super(PersistenceId.of("Account", id));
    this.snapshotEvery = snapshotEvery;
    this.log = log;
  }

  @Override
  public Long emptyState() {
    return 0L;
  }

  @Override
  public CommandHandler<Command, Event, Long> commandHandler() {
    return newCommandHandlerBuilder().forAnyState()
        .onCommand(Deposit.class, (balance, c) -> Effect().persist(new Deposited(c.amount()))
            .thenReply(c.replyTo(), after -> new Outcome(true, after)))
        .onCommand(Withdraw.class, (balance, c) -> c.amount() > balance
            ? Effect().reply(c.replyTo(), new Outcome(false, balance))
            : Effect().persist(new Withdrawn(c.amount())).thenReply(c.replyTo(), after -> new Outcome(true, after)))
        .build();
  }

  @Override
  public EventHandler<Long, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(Deposited.class, (balance, e) -> balance + e.amount())
        .onEvent(Withdrawn.class, (balance, e) -> balance - e.amount())
        .build();
  }

  @Override
  public SignalHandler<Long> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(RecoveryCompleted.class, (balance, s) -> log.tell("recovered balance " + balance))
        .build();
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(snapshotEvery, 2); // recovery replays fewer than N events after a snapshot
  }
}
