package dev.troupe.guide.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.persistence.typed.PersistenceId;
import dev.troupe.persistence.typed.javadsl.CommandHandlerWithReply;
import dev.troupe.persistence.typed.javadsl.EventHandler;
import dev.troupe.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import dev.troupe.testkit.typed.ActorTestKit;
import dev.troupe.testkit.typed.TestProbe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The "Enforced replies" block of {@code docs/persistence.md}, compiled and run: a wallet whose
 * command handler must reply to every command, and a new actor for the same wallet that recovers
 * its balance.
 */
@Timeout(60)
class TypedEnforcedRepliesDocSnippetsTest {
  private final ActorTestKit kit = ActorTestKit.create();

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  // tag::typed-enforced-replies[]
  public sealed interface Command {}
  public record Deposit(int amount, ActorRef<Integer> replyTo) implements Command {}
  public record Withdraw(int amount, ActorRef<Boolean> replyTo) implements Command {}
  public record Remark(String text) implements Command {}   // fire and forget

  public sealed interface Event {}
  public record Deposited(int amount) implements Event {}
  public record Withdrawn(int amount) implements Event {}
  public record Remarked(String text) implements Event {}

  public static final class Wallet extends EventSourcedBehaviorWithEnforcedReplies<Command, Event, Integer> {
    public Wallet(String walletId) {
      super(PersistenceId.of("Wallet", walletId));
    }

    @Override
    public Integer emptyState() {
      return 0;
    }

    @Override
    public CommandHandlerWithReply<Command, Event, Integer> commandHandler() {
      return newCommandHandlerWithReplyBuilder().forAnyState()
          .onCommand(Deposit.class, (balance, c) -> Effect().persist(new Deposited(c.amount()))
              .thenReply(c.replyTo(), after -> after))    // persist(...) alone would not compile
          .onCommand(Withdraw.class, (balance, c) -> c.amount() > balance
              ? Effect().reply(c.replyTo(), false)        // refused: nothing persisted
              : Effect().persist(new Withdrawn(c.amount())).thenReply(c.replyTo(), after -> true))
          .onCommand(Remark.class, c -> Effect().persist(new Remarked(c.text())).thenNoReply())
          .build();
    }

    @Override
    public EventHandler<Integer, Event> eventHandler() {
      return newEventHandlerBuilder().forAnyState()
          .onEvent(Deposited.class, (balance, e) -> balance + e.amount())
          .onEvent(Withdrawn.class, (balance, e) -> balance - e.amount())
          .onEvent(Remarked.class, (balance, e) -> balance)
          .build();
    }
  }
  // end::typed-enforced-replies[]

  @Test
  void theWalletRepliesToEveryCommandAndRecovers() {
    TestProbe<Integer> balances = kit.createTestProbe();
    TestProbe<Boolean> withdrawn = kit.createTestProbe();
    ActorRef<Command> wallet = kit.spawn(new Wallet("w1"));
    wallet.tell(new Deposit(10, balances.getRef()));
    balances.expectMessage(10);
    wallet.tell(new Withdraw(20, withdrawn.getRef()));
    withdrawn.expectMessage(false);
    wallet.tell(new Remark("birthday"));
    wallet.tell(new Withdraw(4, withdrawn.getRef()));
    withdrawn.expectMessage(true);
    kit.stop(wallet);

    ActorRef<Command> again = kit.spawn(new Wallet("w1"));
    again.tell(new Deposit(1, balances.getRef()));
    assertEquals(7, balances.receiveMessage(), "the recovered wallet held 6");
  }
}
