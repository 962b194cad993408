package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SpawnProtocol} as a system's guardian: children spawned from outside any actor by asking,
 * a taken name suffixed, an empty name anonymous, props applied, bad names refused at the source.
 */
class SpawnProtocolTest {
  private ActorSystem<SpawnProtocol.Command> system;

  @BeforeEach
  void start() {
    system = Systems.create(SpawnProtocol.create(), "spawn-protocol");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  private static Behavior<String> echo() {
    return Behaviors.receive((ctx, msg) -> Behaviors.same());
  }

  private <T> ActorRef<T> spawn(Function<ActorRef<ActorRef<T>>, SpawnProtocol.Command> spawn) throws Exception {
    return AskPattern.ask(system, spawn, Probe.WAIT, system.scheduler()).toCompletableFuture()
        .get(Probe.WAIT.toSeconds() + 5, TimeUnit.SECONDS);
  }

  @Test
  void childrenSpawnedByAskingTheGuardianGetTheirNameOrASuffixedOne() throws Exception {
    Probe<String> probe = new Probe<>(system);
    Behavior<String> forward = Behaviors.receiveMessage(m -> {
      probe.ref().tell(m);
      return Behaviors.same();
    });
    ActorRef<String> first = spawn(r -> new SpawnProtocol.Spawn<>(forward, "worker", r));
    ActorRef<String> second = spawn(r -> new SpawnProtocol.Spawn<>(forward, "worker", r));
    ActorRef<String> third = spawn(r -> new SpawnProtocol.Spawn<>(forward, "worker", Props.empty(), r));
    ActorRef<String> anonymous = spawn(r -> new SpawnProtocol.Spawn<>(forward, "", r));
    assertEquals("/user/guardian/worker", first.path().toStringWithoutAddress());
    assertEquals("worker-1", second.path().name());
    assertEquals("worker-2", third.path().name());
    assertTrue(anonymous.path().name().startsWith("$"), anonymous.path().name());
    first.tell("to the first");
    probe.expect("to the first");
    anonymous.tell("to the anonymous one");
    probe.expect("to the anonymous one");
  }

  @Test
  void aNameFreedByAStoppedChildIsTakenAgain() throws Exception {
    ActorRef<String> once = spawn(r -> new SpawnProtocol.Spawn<>(Behaviors.<String>receiveMessage(m -> Behaviors.stopped()), "once", r));
    Probe<Object> watcher = new Probe<>(system);
    watcher.watch(once);
    once.tell("stop");
    watcher.expectTerminated(once);
    ActorRef<String> again = spawn(r -> new SpawnProtocol.Spawn<>(echo(), "once", r));
    assertEquals("once", again.path().name());
  }

  @Test
  void badArgumentsAreRefusedWhenTheSpawnIsMade() {
    ActorRef<ActorRef<String>> replyTo = system.deadLetters();
    InvalidActorNameException e =
        assertThrows(InvalidActorNameException.class, () -> new SpawnProtocol.Spawn<>(echo(), "a/b", replyTo));
    assertTrue(e.getMessage().contains("a/b"), e.getMessage());
    assertThrows(InvalidActorNameException.class, () -> new SpawnProtocol.Spawn<>(echo(), "$reserved", replyTo));
    assertThrows(NullPointerException.class, () -> new SpawnProtocol.Spawn<>(null, "x", replyTo));
    assertThrows(NullPointerException.class, () -> new SpawnProtocol.Spawn<>(echo(), null, replyTo));
    assertThrows(NullPointerException.class, () -> new SpawnProtocol.Spawn<>(echo(), "x", null, replyTo));
    assertThrows(NullPointerException.class, () -> new SpawnProtocol.Spawn<String>(echo(), "x", null));
  }
}
