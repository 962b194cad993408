package dev.troupe.persistence.typed.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.PostStop;
import dev.troupe.actor.typed.SupervisorStrategy;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.state.DurableStateStore;
import dev.troupe.persistence.state.GetObjectResult;
import dev.troupe.persistence.typed.DurableStateStoreException;
import dev.troupe.persistence.typed.PersistenceId;
import dev.troupe.persistence.typed.RecoveryCompleted;
import dev.troupe.persistence.typed.RecoveryFailed;
import dev.troupe.persistence.typed.javadsl.SignalHandler;
import dev.troupe.persistence.typed.state.javadsl.CommandHandler;
import dev.troupe.persistence.typed.state.javadsl.CommandHandlerBuilder;
import dev.troupe.persistence.typed.state.javadsl.CommandHandlerWithReply;
import dev.troupe.persistence.typed.state.javadsl.CommandHandlerWithReplyBuilder;
import dev.troupe.persistence.typed.state.javadsl.DurableStateBehavior;
import dev.troupe.persistence.typed.state.javadsl.DurableStateBehaviorWithEnforcedReplies;
import dev.troupe.persistence.typed.state.javadsl.Effect;
import dev.troupe.persistence.typed.state.javadsl.EffectFactories;
import dev.troupe.persistence.typed.state.javadsl.ReplyEffect;
import dev.troupe.testkit.typed.ActorTestKit;
import dev.troupe.testkit.typed.TestProbe;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * DurableStateBehavior on the in-memory store, the file store and a gated one: persist then reply,
 * recovery, order while a write is in flight, delete, stash, stop, failures, enforced replies. Every
 * wait is bounded, and no test depends on timing: a "no reply yet" is checked while a gate holds
 * the write that the reply waits for.
 */
@Timeout(120)
class DurableStateBehaviorTest {
  private static final AtomicInteger SYSTEMS = new AtomicInteger();
  private static final String BASE = """
      troupe.test.single-expect-default = 20s
      troupe.persistence.typed.stash-capacity = 50
      gated { class = "dev.troupe.persistence.typed.state.GatedDurableStateStore" }
      troupe.serialization.bindings { "dev.troupe.persistence.typed.state.DurableStateBehaviorTest$Tally" = jackson-json }
      """;

  private ActorTestKit kit;
  private GatedDurableStateStore.Control control;
  @TempDir Path dir;

  @BeforeEach
  void start() {
    kit = kit("");
    control = GatedDurableStateStore.control(kit.system().name());
  }

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  private static ActorTestKit kit(String hocon) {
    return ActorTestKit.create("durable-state-" + SYSTEMS.incrementAndGet(),
        ConfigFactory.parseString(hocon + "\n" + BASE).withFallback(ConfigFactory.load()));
  }

  private String fileStore() {
    return "troupe.persistence.state.plugin = \"troupe.persistence.state.file\"\n"
        + "troupe.persistence.state.file.fsync = off\n"
        + "troupe.persistence.state.file.dir = \"" + dir.toString().replace("\\", "\\\\") + "\"\n";
  }

  // ------------------------------------------------------------------ the behaviour under test

  sealed interface Command {}

  record Add(int n, ActorRef<Integer> replyTo) implements Command {}

  record Get(ActorRef<Integer> replyTo) implements Command {}

  /** Locks the tally: Adds wait in the stash until Unlock. */
  record Lock(ActorRef<Integer> replyTo) implements Command {}

  record Unlock(ActorRef<Integer> replyTo) implements Command {}

  record Delete(ActorRef<Integer> replyTo) implements Command {}

  record StopAfter(int n) implements Command {}

  enum Unknown implements Command { INSTANCE }

  /** The state: a record, bound to jackson-json for the file store. */
  record Tally(int total, boolean locked) {}

  /** A tally that refuses to go past 1000; signals reported to a probe. */
  static final class Counter extends DurableStateBehavior<Command, Tally> {
    private final ActorRef<String> signals;
    private final String store;

    Counter(String id, ActorRef<String> signals, String store) {
      super(PersistenceId.of("Counter", id));
      this.signals = signals;
      this.store = store;
    }

    @Override
    public Tally emptyState() {
      return new Tally(0, false);
    }

    @Override
    public CommandHandler<Command, Tally> commandHandler() {
      CommandHandlerBuilder<Command, Tally> b = newCommandHandlerBuilder();
      b.forState(Tally::locked)
          .onCommand(Add.class, c -> Effect().stash())
          .onCommand(Unlock.class, (t, c) -> Effect().persist(new Tally(t.total(), false))
              .thenUnstashAll().thenReply(c.replyTo(), Tally::total));
      b.forState(t -> t.total() >= 1000)
          .onCommand(Add.class, (t, c) -> Effect().reply(c.replyTo(), -1)); // full: refuses
      b.forAnyState()
          .onCommand(Add.class, (t, c) -> Effect().persist(new Tally(t.total() + c.n(), false))
              .thenReply(c.replyTo(), Tally::total))
          .onCommand(Get.class, (t, c) -> Effect().reply(c.replyTo(), t.total()))
          .onCommand(Lock.class, (t, c) -> Effect().persist(new Tally(t.total(), true)).thenReply(c.replyTo(), Tally::total))
          .onCommand(Delete.class, c -> Effect().delete().thenReply(c.replyTo(), Tally::total))
          .onCommand(StopAfter.class, (t, c) -> Effect().persist(new Tally(t.total() + c.n(), false)).thenStop());
      return b.build();
    }

    @Override
    public SignalHandler<Tally> signalHandler() {
      return newSignalHandlerBuilder()
          .onSignal(RecoveryCompleted.class, (t, s) -> signals.tell("recovered:" + t.total()))
          .onSignal(RecoveryFailed.class, (t, s) -> signals.tell("recovery-failed:" + s.failure().getMessage()))
          .onSignal(PostStop.class, (t, s) -> signals.tell("stopped:" + t.total()))
          .build();
    }

    @Override
    public String durableStateStorePluginId() {
      return store;
    }

    @Override
    public String tag() {
      return "counters";
    }
  }

  private static Counter counter(String id, TestProbe<String> signals) {
    return new Counter(id, signals.getRef(), "");
  }

  private static GetObjectResult stored(ActorTestKit in, String pluginId, String id) throws Exception {
    DurableStateStore s = Persistence.get(Adapter.toClassic(in.system())).durableStateStoreFor(pluginId);
    return s.getObject(id).toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  // ------------------------------------------------------------------ tests

  @Test
  void persistsThenRepliesWithTheNewStateAndANewActorGetsItBack() throws Exception {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(counter("a", signals));
    signals.expectMessage("recovered:0");
    for (int i = 1, total = 0; i <= 10; i++) {
      a.tell(new Add(i, replies.getRef()));
      total += i;
      assertEquals(total, replies.receiveMessage(), "the reply carries the state after the " + i + "th write");
    }
    assertEquals(new GetObjectResult(Optional.of(new Tally(55, false)), 10), stored(kit, "", "Counter|a"));
    kit.stop(a);
    signals.expectMessage("stopped:55");

    ActorRef<Command> b = kit.spawn(counter("a", signals));
    signals.expectMessage("recovered:55");
    b.tell(new Add(5, replies.getRef()));
    replies.expectMessage(60);
    assertEquals(11, stored(kit, "", "Counter|a").revision(), "the revisions go on after recovery");
  }

  @Test
  void theFileStoreKeepsTheStateForTheNextActorAndTheNextSystem() throws Exception {
    ActorTestKit files = kit(fileStore());
    try {
      TestProbe<String> signals = files.createTestProbe();
      TestProbe<Integer> replies = files.createTestProbe();
      ActorRef<Command> a = files.spawn(counter("f", signals));
      signals.expectMessage("recovered:0");
      a.tell(new Add(7, replies.getRef()));
      a.tell(new Add(8, replies.getRef()));
      assertEquals(List.of(7, 15), replies.receiveSeveralMessages(2));
      files.stop(a);
      signals.expectMessage("stopped:15");
      ActorRef<Command> b = files.spawn(counter("f", signals));
      signals.expectMessage("recovered:15");
      b.tell(new Add(1, replies.getRef()));
      replies.expectMessage(16);
    } finally {
      files.shutdownTestKit();
    }
    ActorTestKit next = kit(fileStore());
    try {
      TestProbe<String> signals = next.createTestProbe();
      TestProbe<Integer> replies = next.createTestProbe();
      ActorRef<Command> c = next.spawn(counter("f", signals));
      signals.expectMessage("recovered:16");
      c.tell(new Get(replies.getRef()));
      replies.expectMessage(16);
      assertEquals(new GetObjectResult(Optional.of(new Tally(16, false)), 3), stored(next, "", "Counter|f"));
    } finally {
      next.shutdownTestKit();
    }
  }

  @Test
  void commandsDuringAWriteWaitAndAreHandledInOrderAfterIt() throws Exception {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    control.gate = new CompletableFuture<>();
    ActorRef<Command> a = kit.spawn(new Counter("b", signals.getRef(), "gated"));
    signals.expectMessage("recovered:0");
    a.tell(new Add(600, replies.getRef()));
    a.tell(new Add(600, replies.getRef())); // waits: then the state is 600, not yet full
    a.tell(new Add(1, replies.getRef()));   // then 1200: full, refused
    a.tell(new Get(replies.getRef()));
    replies.expectNoMessage(Duration.ofMillis(100)); // the gate holds the first write: nothing can come
    assertEquals(GetObjectResult.empty(), stored(kit, "gated", "Counter|b"));
    control.gate.complete(null);
    assertEquals(List.of(600, 1200, -1, 1200), replies.receiveSeveralMessages(4));
    assertEquals(new GetObjectResult(Optional.of(new Tally(1200, false)), 2), stored(kit, "gated", "Counter|b"));
  }

  @Test
  void aDeleteEmptiesTheStateAndTheRevisionsGoOn() throws Exception {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(counter("d", signals));
    a.tell(new Add(3, replies.getRef()));
    a.tell(new Add(4, replies.getRef()));
    a.tell(new Delete(replies.getRef())); // thenReply sees the empty state
    a.tell(new Get(replies.getRef()));
    assertEquals(List.of(3, 7, 0, 0), replies.receiveSeveralMessages(4));
    assertEquals(new GetObjectResult(Optional.empty(), 3), stored(kit, "", "Counter|d"));
    kit.stop(a);
    signals.expectMessage("recovered:0");
    signals.expectMessage("stopped:0");

    ActorRef<Command> b = kit.spawn(counter("d", signals));
    signals.expectMessage("recovered:0");
    b.tell(new Add(2, replies.getRef()));
    replies.expectMessage(2);
    assertEquals(new GetObjectResult(Optional.of(new Tally(2, false)), 4), stored(kit, "", "Counter|d"));
  }

  @Test
  void stashedCommandsComeBackInOrderAfterTheUnstashingWrite() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    TestProbe<Integer> held = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(counter("s", signals));
    a.tell(new Add(10, replies.getRef()));
    a.tell(new Lock(replies.getRef()));
    a.tell(new Add(1, held.getRef())); // stashed
    a.tell(new Add(2, held.getRef())); // stashed
    a.tell(new Get(replies.getRef())); // handled at once, before the stashed ones
    assertEquals(List.of(10, 10, 10), replies.receiveSeveralMessages(3));
    a.tell(new Unlock(replies.getRef()));
    a.tell(new Get(replies.getRef()));
    assertEquals(List.of(10, 13), replies.receiveSeveralMessages(2), "the unlock's reply, then Get after the stashed ones");
    assertEquals(List.of(11, 13), held.receiveSeveralMessages(2));
  }

  @Test
  void thenStopStopsAfterTheWriteAndLaterCommandsGoToDeadLetters() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(counter("t", signals));
    signals.expectMessage("recovered:0");
    a.tell(new StopAfter(7));
    a.tell(new Add(1, replies.getRef())); // waits for the write, then the actor has stopped
    signals.expectMessage("stopped:7");
    signals.expectTerminated(a);
    ActorRef<Command> again = kit.spawn(counter("t", signals));
    signals.expectMessage("recovered:7");
    again.tell(new Get(replies.getRef()));
    replies.expectMessage(7); // the Add never ran: the first reply is the Get's
  }

  @Test
  void unhandledCommandsAreUnhandledAndTheActorGoesOn() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(counter("u", signals));
    a.tell(Unknown.INSTANCE);
    a.tell(new Add(1, replies.getRef()));
    replies.expectMessage(1);
  }

  @Test
  void aFailedWriteFailsTheActor() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(new Counter("w", signals.getRef(), "gated"));
    signals.expectMessage("recovered:0");
    a.tell(new Add(5, replies.getRef()));
    replies.expectMessage(5);
    control.failWrites.set(1);
    a.tell(new Add(1, replies.getRef()));
    signals.expectMessage("stopped:5"); // DurableStateStoreException: a typed actor stops
    signals.expectTerminated(a);
    a.tell(new Get(replies.getRef()));
    ActorRef<Command> b = kit.spawn(new Counter("w", signals.getRef(), "gated"));
    signals.expectMessage("recovered:5");
    b.tell(new Get(replies.getRef()));
    replies.expectMessage(5); // the failed write's reply never came, nor the dead actor's Get
  }

  @Test
  void aSupervisorRestartsTheActorIntoRecoveryAndTheCommandsThatWaitedAreHandledAfter() {
    TestProbe<String> signals = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    Behavior<Command> supervised = Behaviors.supervise(new Counter("r", signals.getRef(), "gated"))
        .onFailure(DurableStateStoreException.class, SupervisorStrategy.restart());
    ActorRef<Command> a = kit.spawn(supervised);
    signals.expectMessage("recovered:0");
    control.gate = new CompletableFuture<>();
    control.failWrites.set(1);
    a.tell(new Add(1, replies.getRef()));  // its write fails
    a.tell(new Add(2, replies.getRef()));  // waits; handed over to the restarted actor
    a.tell(new Add(3, replies.getRef()));
    replies.expectNoMessage(Duration.ofMillis(100)); // the gate holds the first write
    control.gate.complete(null);
    signals.expectMessage("recovered:0"); // restarted: the failed write is not in the state
    assertEquals(List.of(2, 5), replies.receiveSeveralMessages(2));
  }

  @Test
  void aFailedReadSignalsAndStopsTheActor() {
    TestProbe<String> signals = kit.createTestProbe();
    control.failReads = true;
    ActorRef<Command> a = kit.spawn(new Counter("x", signals.getRef(), "gated"));
    signals.expectMessage("recovery-failed:unreadable");
    signals.expectMessage("stopped:0");
    signals.expectTerminated(a);
  }

  @Test
  void aSecondWriterOfOneIdIsCaughtByTheRevisionAndStops() {
    TestProbe<String> first = kit.createTestProbe();
    TestProbe<String> second = kit.createTestProbe();
    TestProbe<Integer> replies = kit.createTestProbe();
    ActorRef<Command> a = kit.spawn(counter("twice", first));
    ActorRef<Command> b = kit.spawn(counter("twice", second));
    first.expectMessage("recovered:0");
    second.expectMessage("recovered:0"); // both read revision 0
    a.tell(new Add(1, replies.getRef()));
    replies.expectMessage(1);
    b.tell(new Add(100, replies.getRef())); // revision 1 again: refused
    second.expectMessage("stopped:0");
    second.expectTerminated(b);
    a.tell(new Get(replies.getRef()));
    replies.expectMessage(1);
  }

  @Test
  void aWriteWithoutAnAnswerFailsTheActorAfterTheCallTimeout() {
    ActorTestKit slow = kit("troupe.persistence.call-timeout = 300ms");
    try {
      GatedDurableStateStore.control(slow.system().name()).gate = new CompletableFuture<>(); // never answers
      TestProbe<String> signals = slow.createTestProbe();
      TestProbe<Integer> replies = slow.createTestProbe();
      ActorRef<Command> a = slow.spawn(new Counter("k", signals.getRef(), "gated"));
      signals.expectMessage("recovered:0");
      a.tell(new Add(1, replies.getRef()));
      signals.expectMessage("stopped:0");
      signals.expectTerminated(a);
    } finally {
      slow.shutdownTestKit();
    }
  }

  // ------------------------------------------------------------------ enforced replies

  record Deposit(int amount, ActorRef<Integer> replyTo) implements WalletCommand {}

  record Withdraw(int amount, ActorRef<Boolean> replyTo) implements WalletCommand {}

  record Ping() implements WalletCommand {}

  sealed interface WalletCommand permits Deposit, Withdraw, Ping {}

  static final class Wallet extends DurableStateBehaviorWithEnforcedReplies<WalletCommand, Integer> {
    Wallet(String id) {
      super(PersistenceId.of("Wallet", id));
    }

    @Override
    public Integer emptyState() {
      return 0;
    }

    @Override
    public CommandHandlerWithReply<WalletCommand, Integer> commandHandler() {
      return newCommandHandlerWithReplyBuilder().forAnyState()
          .onCommand(Deposit.class, (balance, c) -> Effect().persist(balance + c.amount()).thenReply(c.replyTo(), b -> b))
          .onCommand(Withdraw.class, (balance, c) -> c.amount() > balance
              ? Effect().reply(c.replyTo(), false)
              : Effect().persist(balance - c.amount()).thenReply(c.replyTo(), b -> true))
          .onCommand(Ping.class, c -> Effect().noReply())
          .build();
    }

    EffectFactories<Integer> effects() {
      return Effect();
    }
  }

  @Test
  void anEnforcedRepliesBehaviourRepliesAndRecovers() {
    TestProbe<Integer> balances = kit.createTestProbe();
    TestProbe<Boolean> withdrawn = kit.createTestProbe();
    ActorRef<WalletCommand> w = kit.spawn(new Wallet("w"));
    w.tell(new Deposit(10, balances.getRef()));
    balances.expectMessage(10);
    w.tell(new Ping());
    w.tell(new Withdraw(11, withdrawn.getRef()));
    withdrawn.expectMessage(false);
    w.tell(new Withdraw(4, withdrawn.getRef()));
    withdrawn.expectMessage(true);
    kit.stop(w);
    ActorRef<WalletCommand> again = kit.spawn(new Wallet("w"));
    again.tell(new Deposit(1, balances.getRef()));
    balances.expectMessage(7);
  }

  /** The compiler enforces the replies through these signatures; they must not widen back to Effect. */
  @Test
  void thePublicSignaturesEnforceReplies() throws Exception {
    assertSame(CommandHandlerWithReply.class,
        DurableStateBehaviorWithEnforcedReplies.class.getMethod("commandHandler").getReturnType());
    assertSame(ReplyEffect.class, CommandHandlerWithReply.class.getMethod("apply", Object.class, Object.class).getReturnType());
    assertSame(CommandHandlerWithReply.class, CommandHandlerWithReplyBuilder.class.getMethod("build").getReturnType());
    assertSame(CommandHandlerWithReply.class, CommandHandlerWithReplyBuilder.ForState.class.getMethod("build").getReturnType());
    assertSame(CommandHandlerWithReplyBuilder.class,
        DurableStateBehaviorWithEnforcedReplies.class.getDeclaredMethod("newCommandHandlerWithReplyBuilder").getReturnType());
    int handlers = 0;
    for (Method m : CommandHandlerWithReplyBuilder.ForState.class.getMethods()) {
      if (m.getName().equals("onCommand") || m.getName().equals("onAnyCommand")) {
        ParameterizedType f = (ParameterizedType) m.getGenericParameterTypes()[m.getParameterCount() - 1];
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
    for (String plain : List.of("none", "unhandled", "stop", "unstashAll", "delete")) {
      assertSame(Effect.class, EffectFactories.class.getMethod(plain).getReturnType(), plain);
    }
    assertSame(Effect.class, EffectFactories.class.getMethod("persist", Object.class).getReturnType());
    assertSame(ReplyEffect.class, Effect.class.getMethod("thenReply", ActorRef.class, Function.class).getReturnType());
    assertSame(ReplyEffect.class, Effect.class.getMethod("thenNoReply").getReturnType());
    for (String step : List.of("thenStop", "thenUnstashAll")) {
      assertSame(ReplyEffect.class, ReplyEffect.class.getMethod(step).getReturnType(), step);
    }
    assertSame(ReplyEffect.class, ReplyEffect.class.getMethod("thenRun", java.util.function.Consumer.class).getReturnType());

    EffectFactories<Integer> effects = new Wallet("shape").effects();
    assertTrue(!(effects.persist(1) instanceof ReplyEffect), "a persist without a reply is a plain effect");
    assertTrue(effects.persist(1).thenNoReply() instanceof ReplyEffect);
    assertSame(effects.noReply(), effects.none().thenNoReply(), "no allocation for the common no-reply effect");
  }
}
