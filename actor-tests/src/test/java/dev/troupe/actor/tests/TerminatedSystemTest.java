package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/** What each call of a system answers once {@code terminate()} has completed: one clear failure, at once. */
class TerminatedSystemTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  private static final Duration LONG = Duration.ofSeconds(20);
  private static final Duration AT_ONCE = Duration.ofSeconds(1);

  private ActorSystem sys;
  private ActorRef echo;
  private TestKit kit; // made before the system terminated: a terminated system makes no probe

  @BeforeEach
  void terminateASystemWithOneActor(ActorSystem system, TestKit kit) {
    sys = system;
    this.kit = kit;
    echo = sys.actorOf(Props.create(RuntimeFixtures.ContextActor.class), "echo");
    kit.awaitResult(sys.terminate());
  }

  private void assertNamesTheTerminatedSystem(Throwable t) {
    assertInstanceOf(IllegalStateException.class, t, () -> "unexpected failure: " + t);
    assertTrue(t.getMessage().contains(sys.name()), "the message names the system: " + t.getMessage());
    assertTrue(t.getMessage().contains("terminated"), "the message says it terminated: " + t.getMessage());
  }

  private void assertThrowsNamingTheSystem(Executable call) {
    assertNamesTheTerminatedSystem(assertThrows(IllegalStateException.class, call));
  }

  private void assertFailsAtOnceNamingTheSystem(CompletionStage<?> stage) {
    assertNamesTheTerminatedSystem(kit.awaitFailure(AT_ONCE, stage));
  }

  @Test
  void actorOfThrowsNamingTheTerminatedSystem() {
    assertThrowsNamingTheSystem(() -> sys.actorOf(Props.create(RuntimeFixtures.ContextActor.class)));
    assertThrowsNamingTheSystem(() -> sys.actorOf(Props.create(RuntimeFixtures.ContextActor.class), "late"));
  }

  @Test
  void askFailsAtOnceNamingTheTerminatedSystem() {
    assertFailsAtOnceNamingTheSystem(Patterns.ask(echo, "hello", LONG));
    assertFailsAtOnceNamingTheSystem(Patterns.ask(sys.actorSelection("/user/echo"), "hello", LONG));
  }

  @Test
  void gracefulStopFailsAtOnceNamingTheTerminatedSystem() {
    assertFailsAtOnceNamingTheSystem(Patterns.gracefulStop(echo, LONG));
  }

  @Test
  void resolveOneFailsAtOnceNamingTheTerminatedSystem() {
    assertFailsAtOnceNamingTheSystem(sys.actorSelection("/user/echo").resolveOne(LONG));
  }

  @Test
  void theSchedulerThrowsNamingTheTerminatedSystem() {
    Runnable task = () -> { };
    assertThrowsNamingTheSystem(() -> sys.scheduler().scheduleOnce(LONG, task, Runnable::run));
    assertThrowsNamingTheSystem(() -> sys.scheduler().scheduleAtFixedRate(LONG, LONG, task, Runnable::run));
    assertThrowsNamingTheSystem(() -> sys.scheduler().scheduleWithFixedDelay(LONG, LONG, task, Runnable::run));
    assertThrowsNamingTheSystem(
        () -> sys.scheduler().scheduleOnce(LONG, echo, "tick", Runnable::run, ActorRef.noSender()));
  }
}
