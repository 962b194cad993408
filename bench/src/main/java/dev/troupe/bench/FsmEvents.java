package dev.troupe.bench;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.TroupeSystems;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Events through a finite-state machine actor, Troupe's {@code AbstractFSM} against Pekko's
 * classic one, each on its framework's default dispatcher: the benchmark thread tells one FSM
 * {@value #EVENTS} events and waits until it counted them. {@code stay}: every event stays in the
 * state (the common case of an FSM that accumulates data); {@code goTo}: every event moves to the
 * other of two states (a transition per event, no handlers registered); {@code plain}: the same
 * counting in an ordinary actor, so that plain / stay is what the machine adds. Score: events/s.
 *
 * <p>Run: {@code java -jar benchmarks.jar FsmEvents -f 2 -wi 3 -i 5 -r 1s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FsmEvents {
  /** Events per invocation. */
  public static final int EVENTS = 100_000;

  /** troupe | pekko. */
  @Param({"troupe", "pekko"})
  public String impl;

  /** stay | goTo | plain (the same counting in an ordinary actor: what the FSM adds). */
  @Param({"stay", "goTo", "plain"})
  public String mode;

  /** The states of both machines. */
  enum Side { LEFT, RIGHT }

  /** The event. */
  enum Tick { INSTANCE }

  /** Ends an invocation: the machine checks its count and releases the benchmark thread. */
  record End(Completion done, long expected) {}

  /** The data of both machines: the events counted so far (mutated, so that no event allocates data). */
  static final class Count {
    long n;
  }

  private dev.troupe.actor.ActorSystem troupe;
  private org.apache.pekko.actor.ActorSystem pekko;
  private dev.troupe.actor.ActorRef troupeFsm;
  private org.apache.pekko.actor.ActorRef pekkoFsm;
  private long sent;

  @Setup(Level.Trial)
  public void setup() {
    boolean toggle = switch (mode) {
      case "stay", "plain" -> false;
      case "goTo" -> true;
      default -> throw new IllegalArgumentException("mode is stay, goTo or plain, was " + mode);
    };
    boolean plain = mode.equals("plain");
    switch (impl) {
      case "troupe" -> {
        troupe = TroupeSystems.start(Names.unique("fsm"), "");
        troupeFsm = troupe.actorOf(plain
            ? dev.troupe.actor.Props.create(TroupePlain.class, TroupePlain::new)
            : dev.troupe.actor.Props.create(TroupeMachine.class, () -> new TroupeMachine(toggle)));
      }
      case "pekko" -> {
        pekko = PekkoSystems.start(Names.unique("fsm"), "");
        pekkoFsm = pekko.actorOf(plain
            ? org.apache.pekko.actor.Props.create(PekkoPlain.class, PekkoPlain::new)
            : org.apache.pekko.actor.Props.create(PekkoMachine.class, () -> new PekkoMachine(toggle)));
      }
      default -> throw new IllegalArgumentException("impl is troupe or pekko, was " + impl);
    }
  }

  @TearDown(Level.Trial)
  public void teardown() {
    TroupeSystems.stop(troupe);
    PekkoSystems.stop(pekko);
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public void events() {
    Completion done = new Completion(1);
    sent += EVENTS;
    if (troupeFsm != null) {
      for (int i = 0; i < EVENTS; i++) {
        troupeFsm.tell(Tick.INSTANCE, dev.troupe.actor.ActorRef.noSender());
      }
      troupeFsm.tell(new End(done, sent), dev.troupe.actor.ActorRef.noSender());
    } else {
      for (int i = 0; i < EVENTS; i++) {
        pekkoFsm.tell(Tick.INSTANCE, org.apache.pekko.actor.ActorRef.noSender());
      }
      pekkoFsm.tell(new End(done, sent), org.apache.pekko.actor.ActorRef.noSender());
    }
    done.await(impl + " fsm");
  }

  private static void end(End e, Count c) {
    if (c.n == e.expected()) {
      e.done().done();
    } else {
      e.done().fail("counted " + c.n + " events, expected " + e.expected());
    }
  }

  /** Troupe's machine. */
  static final class TroupeMachine extends dev.troupe.actor.AbstractFSM<Side, Count> {
    TroupeMachine(boolean toggle) {
      startWith(Side.LEFT, new Count());
      for (Side s : Side.values()) {
        Side other = s == Side.LEFT ? Side.RIGHT : Side.LEFT;
        when(s, matchEventEquals(Tick.INSTANCE, (t, c) -> {
          c.n++;
          return toggle ? goTo(other) : stay();
        }).event(End.class, (e, c) -> {
          end(e, c);
          return stay();
        }));
      }
      initialize();
    }
  }

  /** Pekko's machine, the same cases. */
  static final class PekkoMachine extends org.apache.pekko.actor.AbstractFSM<Side, Count> {
    PekkoMachine(boolean toggle) {
      startWith(Side.LEFT, new Count());
      for (Side s : Side.values()) {
        Side other = s == Side.LEFT ? Side.RIGHT : Side.LEFT;
        when(s, matchEventEquals(Tick.INSTANCE, (t, c) -> {
          c.n++;
          return toggle ? goTo(other) : stay();
        }).event(End.class, (e, c) -> {
          end(e, c);
          return stay();
        }));
      }
      initialize();
    }
  }

  /** The counting without a machine, Troupe. */
  static final class TroupePlain extends dev.troupe.actor.AbstractActor {
    private final Count count = new Count();

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals(Tick.INSTANCE, t -> count.n++)
          .match(End.class, e -> end(e, count))
          .build();
    }
  }

  /** The counting without a machine, Pekko. */
  static final class PekkoPlain extends org.apache.pekko.actor.AbstractActor {
    private final Count count = new Count();

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals(Tick.INSTANCE, t -> count.n++)
          .match(End.class, e -> end(e, count))
          .build();
    }
  }
}
