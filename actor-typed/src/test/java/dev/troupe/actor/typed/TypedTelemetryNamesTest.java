package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.Telemetry;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.Receive;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Telemetry counts a typed actor under the class its behaviour was written in, not under the one
 * classic class every typed actor is: an {@code AbstractBehavior}'s own class, the class whose code
 * holds a {@code setup}, {@code withTimers} or {@code receive} function, through {@code supervise},
 * {@code withMdc} and {@code monitor}; a built {@code Receive} counts as {@code Behavior}.
 */
class TypedTelemetryNamesTest {
  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = ActorSystem.create(Behaviors.empty(), "typed-telemetry",
        ConfigFactory.parseString("troupe.telemetry.enabled = on"));
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  /** An AbstractBehavior whose create() is written in it. */
  static final class Counter extends AbstractBehavior<String> {
    static Behavior<String> create() {
      return Behaviors.setup(Counter::new);
    }

    private Counter(ActorContext<String> ctx) {
      super(ctx);
    }

    @Override
    public Receive<String> createReceive() {
      return newReceiveBuilder().onMessage(String.class, s -> this).build();
    }
  }

  /** Functional behaviours written in another class. */
  static final class Functional {
    static Behavior<String> setup() {
      return Behaviors.setup(ctx -> Behaviors.receiveMessage(m -> Behaviors.same()));
    }

    static Behavior<String> receive() {
      return Behaviors.receive((ctx, m) -> Behaviors.same());
    }

    static Behavior<String> timers() {
      return Behaviors.withTimers(timers -> Behaviors.receiveMessage(m -> Behaviors.same()));
    }
  }

  /**
   * Spawns {@code behavior}, has it handle one message, and waits until telemetry has counted
   * {@code expected} messages under {@code name} (an actor's counts are added at the end of each
   * mailbox run); fails with what was counted after {@link Probe#WAIT}.
   */
  private Map<String, Long> counted(Behavior<String> behavior, String name, long expected) {
    ActorRef<String> a = Adapter.spawnAnonymous(Adapter.toClassic(system), behavior);
    a.tell("one");
    long deadline = System.nanoTime() + Probe.WAIT.toNanos();
    Map<String, Long> counted = new TreeMap<>();
    while (System.nanoTime() < deadline) {
      counted.clear();
      for (Telemetry.ActorClassStats c : Telemetry.get(Adapter.toClassic(system)).snapshot().actorClasses()) {
        counted.put(c.className(), c.messagesProcessed());
      }
      if (Long.valueOf(expected).equals(counted.get(name))) {
        return counted;
      }
      LockSupport.parkNanos(1_000_000); // paces the bounded poll above
    }
    return fail(expected + " messages under " + name + " not counted in " + Probe.WAIT + "; counted " + counted);
  }

  @Test
  void typedActorsAreCountedUnderTheClassTheirBehaviourWasWrittenIn() {
    String counter = Counter.class.getName();
    String functional = Functional.class.getName();
    counted(Counter.create(), counter, 1); // an AbstractBehavior
    counted(Functional.setup(), functional, 1);
    counted(Functional.receive(), functional, 2); // Behaviors.receive(function)
    counted(Functional.timers(), functional, 3);
    counted(Behaviors.supervise(Counter.create()).onFailure(RuntimeException.class, SupervisorStrategy.restart()),
        counter, 2);
    counted(Behaviors.withMdc(Map.of("k", "v"), Behaviors.monitor(String.class, system.deadLetters(), Counter.create())),
        counter, 3);
    Map<String, Long> all =
        counted(Behaviors.receive(String.class).onMessage(String.class, s -> Behaviors.same()).build(), Behavior.class.getName(), 1);
    assertFalse(all.containsKey("dev.troupe.actor.typed.internal.TypedActor"), "no actor counted as the engine's class: " + all);
  }
}
