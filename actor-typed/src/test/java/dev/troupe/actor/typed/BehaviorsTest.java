package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.UnhandledMessage;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.Receive;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Behaviours in both styles, the markers, signals and asking from outside. */
class BehaviorsTest {
  /** The contract's example, as a user writes it. */
  public static final class Counter extends AbstractBehavior<Counter.Command> {
    public sealed interface Command {}

    public record Increment(int by) implements Command {}

    public record Get(ActorRef<Integer> replyTo) implements Command {}

    public record Stop() implements Command {}

    public static Behavior<Command> create(ActorRef<String> lifecycle) {
      return Behaviors.setup(ctx -> new Counter(ctx, lifecycle));
    }

    private int n;
    private final ActorRef<String> lifecycle;

    private Counter(ActorContext<Command> ctx, ActorRef<String> lifecycle) {
      super(ctx);
      this.lifecycle = lifecycle;
    }

    @Override
    public Receive<Command> createReceive() {
      return newReceiveBuilder()
          .onMessage(Increment.class, i -> {
            n += i.by();
            return this;
          })
          .onMessage(Get.class, g -> {
            g.replyTo().tell(n);
            return this;
          })
          .onMessage(Stop.class, s -> Behaviors.stopped())
          .onSignal(PostStop.class, s -> {
            lifecycle.tell("stopped at " + n);
            return this;
          })
          .build();
    }
  }

  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("behaviors");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  private <T> T await(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(5, TimeUnit.SECONDS);
  }

  @Test
  void anAbstractBehaviorKeepsItsStateAndAnswersAnAsk() throws Exception {
    Probe<String> lifecycle = new Probe<>(system);
    ActorRef<Counter.Command> counter = Adapter.spawn(Adapter.toClassic(system), Counter.create(lifecycle.ref()), "counter");
    counter.tell(new Counter.Increment(2));
    counter.tell(new Counter.Increment(3));
    assertEquals(5, await(AskPattern.ask(counter, Counter.Get::new, Duration.ofSeconds(3), system.scheduler())));
    counter.tell(new Counter.Stop());
    lifecycle.expect("stopped at 5");
  }

  @Test
  void theGuardianIsTheSystemsRefAndItsStopTerminatesTheSystem() throws Exception {
    ActorSystem<String> s =
        Systems.create(
            Behaviors.receiveMessage(m -> m.equals("stop") ? Behaviors.stopped() : Behaviors.same()), "guarded");
    s.tell("hello");
    s.tell("stop");
    s.getWhenTerminated().toCompletableFuture().get(5, TimeUnit.SECONDS);
  }

  @Test
  void aFunctionalBehaviorCarriesItsStateInTheNextBehavior() throws Exception {
    ActorRef<Object> counter = Adapter.spawn(Adapter.toClassic(system), counting(0), "functional");
    counter.tell(1);
    counter.tell(2);
    Probe<Integer> probe = new Probe<>(system);
    counter.tell(new Report(probe.ref()));
    probe.expect(3);
  }

  private record Report(ActorRef<Integer> replyTo) {}

  private static Behavior<Object> counting(int n) {
    return Behaviors.receive(Object.class)
        .onMessage(Integer.class, i -> counting(n + i))
        .onMessage(Report.class, r -> {
          r.replyTo().tell(n);
          return Behaviors.same();
        })
        .build();
  }

  /** A protocol with a value class and an enum, for value cases. */
  sealed interface Keyed {}

  record Key(String name) implements Keyed {}

  enum Level implements Keyed {
    LOW,
    HIGH
  }

  /** Replies with which case took each message. */
  static final class ByValue extends AbstractBehavior<Keyed> {
    private final ActorRef<String> out;

    ByValue(ActorContext<Keyed> ctx, ActorRef<String> out) {
      super(ctx);
      this.out = out;
    }

    @Override
    public Receive<Keyed> createReceive() {
      return newReceiveBuilder()
          .onMessageEquals(new Key("a"), () -> reply("key a"))
          .onMessageEquals(Level.LOW, () -> reply("low"))
          .onMessage(Level.class, l -> reply("level " + l))
          .onAnyMessage(m -> reply("any " + m))
          .build();
    }

    private Behavior<Keyed> reply(String s) {
      out.tell(s);
      return this;
    }
  }

  @Test
  void valueCasesMatchEqualValuesNotOnlyTheSameInstanceAndEnumConstantsByIdentity() {
    Probe<String> probe = new Probe<>(system);
    ActorRef<Keyed> ref =
        Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<Keyed>setup(ctx -> new ByValue(ctx, probe.ref())));
    ref.tell(new Key(new String("a"))); // equal to the case's value, another instance
    ref.tell(new Key("b"));
    ref.tell(Level.LOW);
    ref.tell(Level.HIGH);
    probe.expect("key a");
    probe.expect("any Key[name=b]");
    probe.expect("low");
    probe.expect("level HIGH");
  }

  @Test
  void onMessageEqualsAndReceiveWithContextAndSignalFunctions() throws Exception {
    Probe<String> probe = new Probe<>(system);
    Behavior<String> b =
        Behaviors.receive(String.class)
            .onMessageEquals("ping", () -> {
              probe.ref().tell("pong");
              return Behaviors.same();
            })
            .onMessage(String.class, s -> s.startsWith("x"), s -> {
              probe.ref().tell("x-case " + s);
              return Behaviors.same();
            })
            .onAnyMessage(s -> {
              probe.ref().tell("any " + s);
              return Behaviors.stopped();
            })
            .onSignal(PostStop.class, s -> {
              probe.ref().tell("post stop");
              return Behaviors.same();
            })
            .build();
    ActorRef<String> ref = Adapter.spawnAnonymous(Adapter.toClassic(system), b);
    ref.tell("ping");
    ref.tell("xy");
    ref.tell("other");
    probe.expect("pong");
    probe.expect("x-case xy");
    probe.expect("any other");
    probe.expect("post stop");

    ActorRef<String> withCtx =
        Adapter.spawnAnonymous(
            Adapter.toClassic(system),
            Behaviors.<String>receive((ctx, m) -> {
              probe.ref().tell(m + " at " + ctx.getSelf().path().name());
              return Behaviors.same();
            }));
    withCtx.tell("hi");
    probe.expect("hi at " + withCtx.path().name());
  }

  /**
   * The first case of a built behaviour is tried apart from the others (its handler has a call site
   * of its own): a message it does not take, by class or by its test, goes on to the later cases
   * in order, and a behaviour with signal cases only leaves every message unhandled.
   */
  @Test
  void aMessageTheFirstCaseRefusesGoesToTheLaterCasesInOrder() {
    Probe<Object> probe = new Probe<>(system);
    Adapter.toClassic(system).eventStream().subscribe(Adapter.toClassic(probe.ref()), UnhandledMessage.class);
    Behavior<Object> b =
        Behaviors.receive(Object.class)
            .onMessage(String.class, s -> s.startsWith("a"), s -> {
              probe.ref().tell("first " + s);
              return Behaviors.same();
            })
            .onMessage(String.class, s -> {
              probe.ref().tell("second " + s);
              return Behaviors.same();
            })
            .onMessage(Integer.class, i -> {
              probe.ref().tell("third " + i);
              return Behaviors.same();
            })
            .build();
    ActorRef<Object> ref = Adapter.spawnAnonymous(Adapter.toClassic(system), b);
    ref.tell("ab");
    ref.tell("ba");
    ref.tell(7);
    ref.tell(2.5);
    probe.expect("first ab");
    probe.expect("second ba");
    probe.expect("third 7");
    assertEquals(2.5, probe.expectClass(UnhandledMessage.class).message());

    ActorRef<String> signalsOnly =
        Adapter.spawnAnonymous(
            Adapter.toClassic(system),
            Behaviors.receive(String.class).onSignal(PostStop.class, s -> Behaviors.same()).build());
    signalsOnly.tell("no case");
    assertEquals("no case", probe.expectClass(UnhandledMessage.class).message());
  }

  enum Light {
    RED,
    GREEN
  }

  record Tick(int n) {}

  /** Cases in order: a record's class, an enum constant, anything; every message's case is told. */
  static final class ByRecordFirst extends AbstractBehavior<Object> {
    private final ActorRef<Object> out;

    ByRecordFirst(ActorContext<Object> ctx, ActorRef<Object> out) {
      super(ctx);
      this.out = out;
    }

    @Override
    public Receive<Object> createReceive() {
      return newReceiveBuilder()
          .onMessage(Tick.class, t -> tell("tick " + t.n()))
          .onMessageEquals(Light.RED, () -> tell("red"))
          .onMessage(Object.class, o -> tell("other " + o))
          .build();
    }

    private Behavior<Object> tell(String s) {
      out.tell(s);
      return this;
    }
  }

  /** Cases in order: an enum constant, a value that is no enum constant, anything. */
  static final class ByConstantFirst extends AbstractBehavior<Object> {
    private final ActorRef<Object> out;

    ByConstantFirst(ActorContext<Object> ctx, ActorRef<Object> out) {
      super(ctx);
      this.out = out;
    }

    @Override
    public Receive<Object> createReceive() {
      return newReceiveBuilder()
          .onMessageEquals(Light.RED, () -> tell("red"))
          .onMessageEquals("RED", () -> tell("the string"))
          .onMessage(Object.class, o -> tell("other " + o))
          .build();
    }

    private Behavior<Object> tell(String s) {
      out.tell(s);
      return this;
    }
  }

  /**
   * An {@code AbstractBehavior} tests its first case by itself when one compare decides it (an enum
   * constant, or a record's class): the message that matches goes to that case, and every other one,
   * including the very class object of the record, goes through the cases in order.
   */
  @Test
  void anAbstractBehaviorsFirstCaseTakesWhatItMatchesAndNothingElse() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<Object> byRecord =
        Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<Object>setup(ctx -> new ByRecordFirst(ctx, probe.ref())));
    byRecord.tell(new Tick(1));
    byRecord.tell(Tick.class); // a class object: not a Tick
    byRecord.tell(Light.RED);
    byRecord.tell(Light.GREEN);
    byRecord.tell(new Tick(2));
    probe.expect("tick 1");
    probe.expect("other " + Tick.class);
    probe.expect("red");
    probe.expect("other GREEN");
    probe.expect("tick 2");

    ActorRef<Object> byConstant =
        Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<Object>setup(ctx -> new ByConstantFirst(ctx, probe.ref())));
    byConstant.tell(Light.RED);
    byConstant.tell("RED");
    byConstant.tell(Light.GREEN);
    byConstant.tell(Light.class);
    byConstant.tell(Light.RED);
    probe.expect("red");
    probe.expect("the string");
    probe.expect("other GREEN");
    probe.expect("other " + Light.class);
    probe.expect("red");
  }

  /**
   * A typed actor tests an {@code AbstractBehavior}'s first case before its own messages, so a first
   * case that names a class the actor takes for itself must not take the shortcut: a watched child's
   * stop still arrives as the {@code Terminated} signal, a receive timeout as the message the
   * behaviour chose, not as the classic messages behind them.
   */
  @Test
  void aFirstCaseNamingTheActorsOwnMessagesDoesNotTakeThem() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<Object> watcher = Adapter.spawnAnonymous(
        Adapter.toClassic(system), Behaviors.<Object>setup(ctx -> new OwnClassFirst(ctx, probe.ref(), dev.troupe.actor.Terminated.class)));
    watcher.tell("watch a child that stops");
    probe.expect("signal Terminated");
    watcher.tell("ping");
    probe.expect("pong");

    ActorRef<Object> timed = Adapter.spawnAnonymous(
        Adapter.toClassic(system), Behaviors.<Object>setup(ctx -> new OwnClassFirst(ctx, probe.ref(), dev.troupe.actor.ReceiveTimeout.class)));
    timed.tell("time out");
    probe.expect("timed out");
    timed.tell("ping");
    probe.expect("pong");

    // The same in the functional style: a built Receive takes the same shortcut.
    ActorRef<Object> functional = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<Object>setup(ctx -> Behaviors.receive(Object.class)
        .onMessage(dev.troupe.actor.Terminated.class, t -> {
          probe.ref().tell("as a message: " + t);
          return Behaviors.same();
        })
        .onMessageEquals("watch a child that stops", () -> {
          ActorRef<Void> child = ctx.spawnAnonymous(Behaviors.empty());
          ctx.watch(child);
          ctx.stop(child);
          return Behaviors.same();
        })
        .onSignal(Terminated.class, t -> {
          probe.ref().tell("signal Terminated");
          return Behaviors.same();
        })
        .build()));
    functional.tell("watch a child that stops");
    probe.expect("signal Terminated");
  }

  /** Its first case names a class of the classic runtime's own messages; it reports what reaches it. */
  static final class OwnClassFirst extends AbstractBehavior<Object> {
    private final ActorRef<Object> out;
    private final Class<?> first;

    OwnClassFirst(ActorContext<Object> ctx, ActorRef<Object> out, Class<?> first) {
      super(ctx);
      this.out = out;
      this.first = first;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Receive<Object> createReceive() {
      return newReceiveBuilder()
          .onMessage((Class<Object>) first, m -> tell("as a message: " + m))
          .onMessageEquals("watch a child that stops", () -> {
            ActorRef<Void> child = getContext().spawnAnonymous(Behaviors.empty());
            getContext().watch(child);
            getContext().stop(child);
            return this;
          })
          .onMessageEquals("time out", () -> {
            getContext().setReceiveTimeout(Duration.ofMillis(20), "timed out");
            return this;
          })
          .onMessageEquals("timed out", () -> {
            getContext().cancelReceiveTimeout();
            return tell("timed out");
          })
          .onMessageEquals("ping", () -> tell("pong"))
          .onSignal(Terminated.class, t -> tell("signal Terminated"))
          .build();
    }

    private Behavior<Object> tell(String s) {
      out.tell(s);
      return this;
    }
  }

  /** Counts, and moves to a fresh instance of itself (count 0, next generation) on "next". */
  static final class Generation extends AbstractBehavior<String> {
    private final ActorRef<String> out;
    private final int generation;
    private int count;

    Generation(ActorContext<String> ctx, ActorRef<String> out, int generation) {
      super(ctx);
      this.out = out;
      this.generation = generation;
    }

    @Override
    public Receive<String> createReceive() {
      return newReceiveBuilder()
          .onMessageEquals("inc", () -> {
            count++;
            return this;
          })
          .onMessageEquals("next", () -> new Generation(getContext(), out, generation + 1))
          .onMessageEquals("report", () -> {
            out.tell("generation " + generation + " count " + count);
            return this;
          })
          .onMessageEquals("stop", Behaviors::stopped)
          .onSignal(PostStop.class, s -> {
            out.tell("stopped in generation " + generation);
            return this;
          })
          .build();
    }
  }

  /**
   * What a handler returns decides the next behaviour, whether the actor runs an {@code
   * AbstractBehavior} or a built behaviour: the object that ran (compared by identity on the
   * actor's path) is kept with its state; another object of the same class replaces it, and a
   * deferred one is set up first; stopped stops; unhandled keeps the behaviour and publishes.
   */
  @Test
  void aHandlerReturningTheBehaviorThatRanKeepsItAndAnyOtherObjectReplacesIt() {
    Probe<Object> probe = new Probe<>(system);
    ActorRef<String> gen =
        Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.<String>setup(ctx -> new Generation(ctx, probe.ref().narrow(), 1)));
    gen.tell("inc");
    gen.tell("inc");
    gen.tell("report");
    probe.expect("generation 1 count 2");
    gen.tell("next");
    gen.tell("inc");
    gen.tell("report");
    probe.expect("generation 2 count 1");
    probe.watch(gen);
    gen.tell("stop");
    probe.expect("stopped in generation 2");
    probe.expectTerminated(gen);

    Adapter.toClassic(system).eventStream().subscribe(Adapter.toClassic(probe.ref()), UnhandledMessage.class);
    int[] setups = {0};
    AtomicReference<Behavior<String>> self = new AtomicReference<>();
    self.set(
        Behaviors.receive(String.class)
            .onMessageEquals("self", self::get) // the very object that runs: kept, not set up
            .onMessageEquals("fresh", () -> Behaviors.setup(ctx -> {
              setups[0]++;
              return self.get();
            }))
            .onMessageEquals("count", () -> {
              probe.ref().tell("setups " + setups[0]);
              return Behaviors.same();
            })
            .onMessageEquals("unknown", Behaviors::unhandled)
            .build());
    ActorRef<String> built = Adapter.spawnAnonymous(Adapter.toClassic(system), self.get());
    built.tell("self");
    built.tell("count");
    probe.expect("setups 0");
    built.tell("fresh");
    built.tell("self");
    built.tell("count");
    probe.expect("setups 1");
    built.tell("unknown");
    assertEquals("unknown", probe.expectClass(UnhandledMessage.class).message());
    built.tell("count");
    probe.expect("setups 1");
  }

  @Test
  void theMarkersAreSingletons() {
    assertSame(Behaviors.same(), Behaviors.<Integer>same());
    assertSame(Behaviors.unhandled(), Behaviors.<Integer>unhandled());
    assertSame(Behaviors.stopped(), Behaviors.<Integer>stopped());
    assertSame(Behaviors.empty(), Behaviors.<Integer>empty());
    assertSame(Behaviors.ignore(), Behaviors.<Integer>ignore());
  }

  @Test
  void unhandledAndEmptyPublishUnhandledMessagesWhileIgnoreDropsSilently() {
    Probe<Object> unhandled = new Probe<>(system);
    Adapter.toClassic(system).eventStream().subscribe(Adapter.toClassic(unhandled.ref()), UnhandledMessage.class);
    ActorRef<String> picky =
        Adapter.spawnAnonymous(
            Adapter.toClassic(system),
            Behaviors.receiveMessage(m -> m.equals("ok") ? Behaviors.same() : Behaviors.unhandled()));
    ActorRef<String> empty = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.empty());
    ActorRef<String> ignore = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.ignore());
    ignore.tell("dropped");
    picky.tell("ok");
    picky.tell("nope");
    assertEquals("nope", unhandled.expectClass(UnhandledMessage.class).message());
    empty.tell("nothing");
    UnhandledMessage u = unhandled.expectClass(UnhandledMessage.class);
    assertEquals("nothing", u.message());
    assertEquals(Adapter.toClassic(empty), u.recipient());
    unhandled.expectNothing(Duration.ofMillis(100));
  }

  @Test
  void aSetupThatReturnsStoppedStopsTheActorAndTheNextBehaviorMayBeDeferred() {
    Probe<String> probe = new Probe<>(system);
    ActorRef<Object> stopsAtOnce = Adapter.spawnAnonymous(Adapter.toClassic(system), Behaviors.setup(ctx -> Behaviors.stopped()));
    probe.watch(stopsAtOnce);
    probe.expectTerminated(stopsAtOnce);

    ActorRef<String> twoPhases =
        Adapter.spawnAnonymous(
            Adapter.toClassic(system),
            Behaviors.receiveMessage(first -> Behaviors.setup(ctx -> {
              probe.ref().tell("set up after " + first);
              return Behaviors.receiveMessage(m -> {
                probe.ref().tell("second phase: " + m);
                return Behaviors.same();
              });
            })));
    twoPhases.tell("a");
    twoPhases.tell("b");
    probe.expect("set up after a");
    probe.expect("second phase: b");
  }

  @Test
  void typedRefsAreEqualWhenTheirActorIs() {
    ActorRef<String> a = Adapter.spawn(Adapter.toClassic(system), Behaviors.<String>ignore(), "a");
    ActorRef<String> again = Adapter.toTyped(Adapter.toClassic(a));
    assertEquals(a, again);
    assertEquals(a.hashCode(), again.hashCode());
    assertSame(a, a.narrow());
    assertTrue(a.path().toString().endsWith("/user/a"), a.path().toString());
  }
}
