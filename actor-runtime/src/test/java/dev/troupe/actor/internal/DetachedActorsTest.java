package dev.troupe.actor.internal;

import dev.troupe.actor.internal.ref.AbsentActorRef;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.SystemMessages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.Props;
import dev.troupe.runtime.spi.SystemMessage;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Actors outside the guardians' tree, supervised by a ref they are given (what remote deployment
 * builds on): failures and the death notice go to that ref, path lookups find them, and the
 * system's termination stops them and waits for them.
 */
class DetachedActorsTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private final ActorSystemImpl system = (ActorSystemImpl) ActorSystem.create("detached");

  @AfterEach
  void terminate() throws Exception {
    system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** Fails on "fail", answers "pong" to "ping", completes its future in postStop. */
  static final class Hosted extends AbstractActor {
    private final CompletableFuture<String> stopped;

    Hosted(CompletableFuture<String> stopped) {
      this.stopped = stopped;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("fail", m -> {
            throw new IllegalStateException("asked to");
          })
          .matchEquals("ping", m -> getSender().tell("pong", getSelf()))
          .build();
    }

    @Override
    public void postStop() {
      stopped.complete("stopped");
    }
  }

  /** A supervisor that only records what it is sent. */
  static final class Recorder extends InternalActorRef {
    final BlockingQueue<SystemMessage> received = new LinkedBlockingQueue<>();
    private final ActorSystemImpl system;
    private final ActorPath path = ActorPath.fromString("troupe://elsewhere@10.0.0.1:2552/user/parent#7");

    Recorder(ActorSystemImpl system) {
      this.system = system;
    }

    @Override
    public ActorPath path() {
      return path;
    }

    @Override
    public ActorSystemImpl system() {
      return system;
    }

    @Override
    public void tell(Object message, ActorRef sender) {}

    @Override
    public void sendSystemMessage(SystemMessage message) {
      received.add(message);
    }

    @Override
    public boolean isTerminated() {
      return false;
    }
  }

  private ActorPath pathOf(String elements) {
    return ActorPath.root(system.address()).descendant(elements).withUid(42);
  }

  private <T extends SystemMessage> T next(Recorder r, Class<T> type) throws InterruptedException {
    SystemMessage m = r.received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertInstanceOf(type, m, "the supervisor got " + m);
    return type.cast(m);
  }

  @Test
  void itsFailuresAndItsDeathGoToTheSupervisorAndLookupsFindItMeanwhile() throws Exception {
    Recorder supervisor = new Recorder(system);
    CompletableFuture<String> stopped = new CompletableFuture<>();
    ActorPath path = pathOf("remote/elsewhere/user/parent/child");
    InternalActorRef child =
        system.provider().local().actorOfSupervisedBy(Props.create(Hosted.class, stopped), path, supervisor);

    assertSame(child, system.provider().resolveActorRef(path), "found by its path");
    assertEquals("pong", Patterns.ask(child, "ping", WAIT).toCompletableFuture().join());
    child.tell("fail", ActorRef.noSender());
    SystemMessages.Failed f = next(supervisor, SystemMessages.Failed.class);
    assertEquals(child, f.child());
    assertEquals("asked to", f.cause().getMessage());

    child.stop();
    SystemMessages.DeathWatchNotification d = next(supervisor, SystemMessages.DeathWatchNotification.class);
    assertEquals(child, d.actor());
    assertEquals("stopped", stopped.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
    assertInstanceOf(AbsentActorRef.class, system.provider().resolveActorRef(path), "forgotten once terminated");
  }

  @Test
  void theSystemsTerminationStopsItBeforeTheThreadsGo() throws Exception {
    CompletableFuture<String> stopped = new CompletableFuture<>();
    system.provider().local().actorOfSupervisedBy(
        Props.create(Hosted.class, stopped), pathOf("remote/x/user/p/c"), new Recorder(system));

    system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);

    assertTrue(stopped.isDone(), "postStop ran before the system terminated");
  }

  @Test
  void aTakenPathOrOneInsideTheGuardiansTreeIsRefused() {
    Recorder supervisor = new Recorder(system);
    Props props = Props.create(Hosted.class, new CompletableFuture<String>());
    system.provider().local().actorOfSupervisedBy(props, pathOf("remote/x/y"), supervisor);

    assertThrows(
        InvalidActorNameException.class,
        () -> system.provider().local().actorOfSupervisedBy(props, pathOf("remote/x/y"), supervisor));
    assertThrows(
        InvalidActorNameException.class,
        () -> system.provider().local().actorOfSupervisedBy(props, pathOf("user/x"), supervisor));
  }
}
