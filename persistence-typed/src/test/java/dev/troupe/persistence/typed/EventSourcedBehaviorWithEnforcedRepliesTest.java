package dev.troupe.persistence.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.PostStop;
import dev.troupe.persistence.typed.javadsl.CommandHandler;
import dev.troupe.persistence.typed.javadsl.CommandHandlerWithReply;
import dev.troupe.persistence.typed.javadsl.CommandHandlerWithReplyBuilder;
import dev.troupe.persistence.typed.javadsl.Effect;
import dev.troupe.persistence.typed.javadsl.EffectFactories;
import dev.troupe.persistence.typed.javadsl.EventHandler;
import dev.troupe.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import dev.troupe.persistence.typed.javadsl.ReplyEffect;
import dev.troupe.persistence.typed.javadsl.SignalHandler;
import dev.troupe.testkit.typed.ActorTestKit;
import dev.troupe.testkit.typed.TestProbe;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * EventSourcedBehaviorWithEnforcedReplies on the in-memory journal: an account whose every command
 * handler answers with a ReplyEffect. The compiler is what enforces the replies; these tests check
 * that the reply effects run as effects do (persist then reply, reply alone, no reply, rejections,
 * stash, stop), after a recovery too, and that the public signatures are the enforcing ones. The
 * waits are bounded and no test depends on timing: every "no reply" is shown by the next reply
 * coming first on the same probe.
 */
@Timeout(120)
class EventSourcedBehaviorWithEnforcedRepliesTest {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();
  private ActorTestKit kit;

  @BeforeEach
  void start() {
    kit = ActorTestKit.create("enforced-replies-" + SYSTEMS.incrementAndGet(), ConfigFactory.parseString("""
        troupe.test.single-expect-default = 20s
        """).withFallback(ConfigFactory.load()));
  }

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  // ------------------------------------------------------------------ the behaviour under test

  sealed interface Command {}

  record Deposit(int amount, ActorRef<Result> replyTo) implements Command {}

  record Withdraw(int amount, ActorRef<Result> replyTo) implements Command {}

  record GetAccount(ActorRef<Account> replyTo) implements Command {}

  /** Fire and forget: persisted, no reply. */
  record Remark(String text) implements Command {}

  /** Fire and forget: nothing persisted, no reply. */
  enum Ping implements Command { INSTANCE }

  record Suspend(ActorRef<Result> replyTo) implements Command {}

  record Resume(ActorRef<Result> replyTo) implements Command {}

  record Close(ActorRef<Result> replyTo) implements Command {}

  /** Stops the actor; the reply comes after the stop step and is still sent. */
  record Terminate(ActorRef<Result> replyTo) implements Command {}

  sealed interface Result {}

  record Ok(int balance) implements Result {}

  record Rejected(String reason) implements Result {}

  sealed interface Event {}

  record Deposited(int amount) implements Event {}

  record Withdrawn(int amount) implements Event {}

  record Remarked(String text) implements Event {}

  record AccountSuspended() implements Event {}

  record AccountResumed() implements Event {}

  record AccountClosed() implements Event {}

  sealed interface Account {
    int balance();

    int remarks();
  }

  record Open(int balance, int remarks) implements Account {}

  record Suspended(int balance, int remarks) implements Account {}

  record Closed(int balance, int remarks) implements Account {}

  /** An account: open, suspended (money commands wait in the stash) or closed (they are refused). */
  static final class BankAccount extends EventSourcedBehaviorWithEnforcedReplies<Command, Event, Account> {
    private final ActorRef<String> signals;

    BankAccount(String id, ActorRef<String> signals) {
      super(PersistenceId.of("Account", id));
      this.signals = signals;
    }

    @Override
    public Account emptyState() {
      return new Open(0, 0);
    }

    @Override
    public CommandHandlerWithReply<Command, Event, Account> commandHandler() {
      CommandHandlerWithReplyBuilder<Command, Event, Account> b = newCommandHandlerWithReplyBuilder();
      b.forAnyState()
          .onCommand(GetAccount.class, (account, c) -> Effect().reply(c.replyTo(), account))
          .onCommand(Ping.class, c -> Effect().noReply())
          .onCommand(Terminate.class, (account, c) -> Effect().stop().thenReply(c.replyTo(), a -> new Ok(a.balance())));
      b.forStateType(Open.class)
          .onCommand(Deposit.class, (account, c) -> Effect().persist(new Deposited(c.amount()))
              .thenReply(c.replyTo(), after -> new Ok(after.balance())))
          .onCommand(Withdraw.class, (account, c) -> c.amount() > account.balance()
              ? Effect().reply(c.replyTo(), new Rejected("insufficient funds: " + account.balance()))
              : Effect().persist(new Withdrawn(c.amount())).thenReply(c.replyTo(), after -> new Ok(after.balance())))
          .onCommand(Remark.class, c -> Effect().persist(new Remarked(c.text())).thenNoReply())
          .onCommand(Suspend.class, (account, c) -> Effect().persist(new AccountSuspended())
              .thenReply(c.replyTo(), after -> new Ok(after.balance())))
          .onCommand(Resume.class, c -> Effect().reply(c.replyTo(), new Rejected("not suspended")))
          .onCommand(Close.class, c -> Effect().persist(new AccountClosed())
              .thenReply(c.replyTo(), after -> new Ok(after.balance())));
      b.forStateType(Suspended.class)
          .onCommand(Deposit.class, c -> Effect().stash())
          .onCommand(Withdraw.class, c -> Effect().stash())
          .onCommand(Resume.class, (account, c) -> Effect().persist(new AccountResumed())
              .thenReply(c.replyTo(), after -> new Ok(after.balance()))
              .thenUnstashAll()) // still a ReplyEffect
          .onCommand(Suspend.class, c -> Effect().reply(c.replyTo(), new Rejected("suspended")))
          .onCommand(Close.class, c -> Effect().reply(c.replyTo(), new Rejected("suspended")));
      b.forStateType(Closed.class)
          .onCommand(Deposit.class, c -> Effect().reply(c.replyTo(), new Rejected("closed")))
          .onCommand(Withdraw.class, c -> Effect().reply(c.replyTo(), new Rejected("closed")))
          .onCommand(Close.class, c -> Effect().reply(c.replyTo(), new Rejected("closed")));
      return b.build(); // a Remark to a suspended or closed account matches no case: unhandled, no reply
    }

    @Override
    public EventHandler<Account, Event> eventHandler() {
      return newEventHandlerBuilder().forAnyState()
          .onEvent(Deposited.class, (a, e) -> new Open(a.balance() + e.amount(), a.remarks()))
          .onEvent(Withdrawn.class, (a, e) -> new Open(a.balance() - e.amount(), a.remarks()))
          .onEvent(Remarked.class, (a, e) -> new Open(a.balance(), a.remarks() + 1))
          .onEvent(AccountSuspended.class, (a, e) -> new Suspended(a.balance(), a.remarks()))
          .onEvent(AccountResumed.class, (a, e) -> new Open(a.balance(), a.remarks()))
          .onEvent(AccountClosed.class, (a, e) -> new Closed(a.balance(), a.remarks()))
          .build();
    }

    @Override
    public SignalHandler<Account> signalHandler() {
      return newSignalHandlerBuilder()
          .onSignal(RecoveryCompleted.class, (a, s) -> signals.tell("recovered:" + a))
          .onSignal(PostStop.class, (a, s) -> signals.tell("stopped:" + a))
          .build();
    }

    /** @return the effect factories, for the test of what a plain effect is */
    EffectFactories<Event, Account> effects() {
      return Effect();
    }
  }

  // ------------------------------------------------------------------ tests

  @Test
  void persistsThenRepliesWithTheNewStateAndRepliesWithoutPersisting() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Result> results = kit.createTestProbe();
    TestProbe<Account> accounts = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(new BankAccount("a", signals.getRef()));
    signals.expectMessage("recovered:" + new Open(0, 0));
    a.tell(new Deposit(100, results.getRef()));
    results.expectMessage(new Ok(100));
    a.tell(new Deposit(50, results.getRef()));
    results.expectMessage(new Ok(150));
    a.tell(new Withdraw(30, results.getRef()));
    results.expectMessage(new Ok(120));
    a.tell(new GetAccount(accounts.getRef())); // Effect().reply: nothing persisted
    accounts.expectMessage(new Open(120, 0));
  }

  @Test
  void aRefusedCommandGetsARejectionAndChangesNothing() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Result> results = kit.createTestProbe();
    TestProbe<Account> accounts = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(new BankAccount("b", signals.getRef()));
    a.tell(new Deposit(10, results.getRef()));
    a.tell(new Withdraw(11, results.getRef()));
    a.tell(new Resume(results.getRef()));
    a.tell(new GetAccount(accounts.getRef()));
    assertEquals(List.of(new Ok(10), new Rejected("insufficient funds: 10"), new Rejected("not suspended")),
        results.receiveSeveralMessages(3));
    accounts.expectMessage(new Open(10, 0));
  }

  @Test
  void fireAndForgetCommandsDeclareNoReplyAndTheActorGoesOn() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Account> accounts = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(new BankAccount("c", signals.getRef()));
    a.tell(new Remark("first"));  // persist(...).thenNoReply()
    a.tell(Ping.INSTANCE);        // Effect().noReply()
    a.tell(new Remark("second"));
    a.tell(new GetAccount(accounts.getRef()));
    accounts.expectMessage(new Open(0, 2));
  }

  @Test
  void aRecoveredActorRepliesFromTheRecoveredState() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Result> results = kit.createTestProbe();
    TestProbe<Account> accounts = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(new BankAccount("d", signals.getRef()));
    signals.expectMessage("recovered:" + new Open(0, 0));
    a.tell(new Deposit(70, results.getRef()));
    a.tell(new Remark("kept"));
    a.tell(new Withdraw(20, results.getRef()));
    assertEquals(List.of(new Ok(70), new Ok(50)), results.receiveSeveralMessages(2));
    kit.stop(a);
    signals.expectMessage("stopped:" + new Open(50, 1));

    ActorRef<Command> b = kit.spawn(new BankAccount("d", signals.getRef()));
    signals.expectMessage("recovered:" + new Open(50, 1));
    b.tell(new Withdraw(60, results.getRef()));
    results.expectMessage(new Rejected("insufficient funds: 50"));
    b.tell(new Deposit(5, results.getRef()));
    results.expectMessage(new Ok(55));
    b.tell(new GetAccount(accounts.getRef()));
    accounts.expectMessage(new Open(55, 1));
  }

  @Test
  void theStateTypeChoosesTheReplyAndAClosedAccountStaysClosedAfterRecovery() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Result> results = kit.createTestProbe();
    TestProbe<Account> accounts = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(new BankAccount("e", signals.getRef()));
    a.tell(new Deposit(40, results.getRef()));
    a.tell(new Close(results.getRef()));
    a.tell(new Deposit(1, results.getRef()));
    a.tell(new Withdraw(1, results.getRef()));
    a.tell(new Close(results.getRef()));
    a.tell(new Remark("no case for a closed account")); // unhandled, no reply: the actor goes on
    a.tell(new GetAccount(accounts.getRef()));
    assertEquals(List.of(new Ok(40), new Ok(40), new Rejected("closed"), new Rejected("closed"), new Rejected("closed")),
        results.receiveSeveralMessages(5));
    accounts.expectMessage(new Closed(40, 0));
    kit.stop(a);
    signals.expectMessage("recovered:" + new Open(0, 0));
    signals.expectMessage("stopped:" + new Closed(40, 0));

    ActorRef<Command> b = kit.spawn(new BankAccount("e", signals.getRef()));
    b.tell(new Deposit(1, results.getRef()));
    results.expectMessage(new Rejected("closed"));
    b.tell(new GetAccount(accounts.getRef()));
    accounts.expectMessage(new Closed(40, 0));
  }

  @Test
  void stashedCommandsGetTheirRepliesWhenHandledAfterUnstash() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Result> results = kit.createTestProbe();
    TestProbe<Result> held = kit.createTestProbe();
    TestProbe<Account> accounts = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(new BankAccount("f", signals.getRef()));
    a.tell(new Deposit(10, results.getRef()));
    a.tell(new Suspend(results.getRef()));
    a.tell(new Deposit(5, held.getRef()));   // stashed
    a.tell(new Withdraw(12, held.getRef())); // stashed
    a.tell(new Suspend(results.getRef()));   // refused at once, before the stashed ones
    a.tell(new GetAccount(accounts.getRef()));
    assertEquals(List.of(new Ok(10), new Ok(10), new Rejected("suspended")), results.receiveSeveralMessages(3));
    accounts.expectMessage(new Suspended(10, 0)); // the stashed commands are not handled yet
    a.tell(new Resume(results.getRef()));
    a.tell(new GetAccount(accounts.getRef()));
    results.expectMessage(new Ok(10)); // the resume's reply comes first, then the stashed commands run, in order
    assertEquals(List.of(new Ok(15), new Ok(3)), held.receiveSeveralMessages(2));
    accounts.expectMessage(new Open(3, 0)); // after the stashed ones: they come back before later commands
  }

  @Test
  void aReplyAfterAStopIsSentBeforeTheActorStops() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Result> results = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(new BankAccount("g", signals.getRef()));
    a.tell(new Deposit(8, results.getRef()));
    a.tell(new Terminate(results.getRef())); // Effect().stop().thenReply(...)
    assertEquals(List.of(new Ok(8), new Ok(8)), results.receiveSeveralMessages(2));
    signals.expectMessage("recovered:" + new Open(0, 0));
    signals.expectMessage("stopped:" + new Open(8, 0));
    signals.expectTerminated(a);
  }

  @Test
  void theCommandHandlerIsAPlainCommandHandlerAndAPlainEffectIsNoReplyEffect() {
    BankAccount account = new BankAccount("h", kit.<String>createTestProbe().getRef());
    CommandHandler<Command, Event, Account> plain = account.commandHandler(); // what the runtime calls
    TestProbe<Result> results = kit.createTestProbe();
    Effect<Event, Account> e = plain.apply(new Open(5, 0), new Deposit(1, results.getRef()));
    assertInstanceOf(ReplyEffect.class, e);
    EffectFactories<Event, Account> effects = account.effects();
    Effect<Event, Account> persisted = effects.persist(new Deposited(1));
    assertFalse(persisted instanceof ReplyEffect, "a persist without a reply is a plain effect: " + persisted);
    assertThrows(ClassCastException.class, () -> castToReplyEffect(persisted));
    assertFalse(effects.none() instanceof ReplyEffect);
    assertFalse(effects.none().thenRun(s -> { }).thenStop() instanceof ReplyEffect);
    assertInstanceOf(ReplyEffect.class, persisted.thenNoReply());
    assertInstanceOf(ReplyEffect.class, effects.noReply().thenRun(s -> { }).thenStop().thenUnstashAll());
    assertSame(effects.noReply(), effects.none().thenNoReply(), "no allocation for the common no-reply effect");
  }

  @SuppressWarnings("unchecked")
  private static ReplyEffect<Event, Account> castToReplyEffect(Effect<Event, Account> e) {
    return (ReplyEffect<Event, Account>) e;
  }

  /** The compiler enforces the replies through these signatures; they must not widen back to Effect. */
  @Test
  void thePublicSignaturesEnforceReplies() throws Exception {
    assertSame(CommandHandlerWithReply.class,
        EventSourcedBehaviorWithEnforcedReplies.class.getMethod("commandHandler").getReturnType());
    assertSame(ReplyEffect.class, CommandHandlerWithReply.class.getMethod("apply", Object.class, Object.class).getReturnType());
    assertSame(CommandHandlerWithReply.class, CommandHandlerWithReplyBuilder.class.getMethod("build").getReturnType());
    assertSame(CommandHandlerWithReply.class, CommandHandlerWithReplyBuilder.ForState.class.getMethod("build").getReturnType());
    Method newBuilder = EventSourcedBehaviorWithEnforcedReplies.class.getDeclaredMethod("newCommandHandlerWithReplyBuilder");
    assertSame(CommandHandlerWithReplyBuilder.class, newBuilder.getReturnType());

    int handlers = 0;
    for (Method m : CommandHandlerWithReplyBuilder.ForState.class.getMethods()) {
      if (m.getName().equals("onCommand") || m.getName().equals("onAnyCommand")) {
        Type handler = m.getGenericParameterTypes()[m.getParameterCount() - 1];
        ParameterizedType f = (ParameterizedType) handler;
        assertTrue(f.getRawType() == BiFunction.class || f.getRawType() == Function.class, m.toString());
        Type[] args = f.getActualTypeArguments();
        assertSame(ReplyEffect.class, ((ParameterizedType) args[args.length - 1]).getRawType(), m.toGenericString());
        handlers++;
      }
    }
    assertEquals(3, handlers, "onCommand (state and command), onCommand (command), onAnyCommand");

    assertSame(ReplyEffect.class, EffectFactories.class.getMethod("reply", ActorRef.class, Object.class).getReturnType());
    assertSame(ReplyEffect.class, EffectFactories.class.getMethod("noReply").getReturnType());
    assertSame(ReplyEffect.class, EffectFactories.class.getMethod("stash").getReturnType());
    for (String plain : List.of("none", "unhandled", "stop", "unstashAll")) {
      assertSame(Effect.class, EffectFactories.class.getMethod(plain).getReturnType(), plain);
    }
    assertSame(Effect.class, EffectFactories.class.getMethod("persist", Object.class).getReturnType());
    assertSame(Effect.class, EffectFactories.class.getMethod("persist", List.class).getReturnType());
    assertSame(ReplyEffect.class, Effect.class.getMethod("thenReply", ActorRef.class, Function.class).getReturnType());
    assertSame(ReplyEffect.class, Effect.class.getMethod("thenNoReply").getReturnType());
    for (String step : List.of("thenStop", "thenUnstashAll")) {
      assertSame(ReplyEffect.class, ReplyEffect.class.getMethod(step).getReturnType(), step);
    }
    assertSame(ReplyEffect.class, ReplyEffect.class.getMethod("thenRun", java.util.function.Consumer.class).getReturnType());
  }
}
