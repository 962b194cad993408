package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.troupe.actor.AbstractLoggingActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.CoordinatedShutdown;
import dev.troupe.actor.Done;
import dev.troupe.actor.Props;
import dev.troupe.actor.ReceiveTimeout;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The names a Pekko user types out of habit compile and do what Pekko's do: {@code
 * AbstractLoggingActor}, {@code getContext().getDispatcher()}, {@code cancelReceiveTimeout()},
 * {@code system.getScheduler()}, {@code getEventStream()}, {@code getDispatcher()} and {@code
 * CoordinatedShutdown.PhaseServiceUnbind()} and its siblings.
 */
@ExtendWith(ActorSystemExtension.class)
class PekkoNamesTest {
  /** Logs, answers on its dispatcher through a future, and arms then cancels a receive timeout. */
  static final class Worker extends AbstractLoggingActor {
    @Override
    public void preStart() {
      getContext().setReceiveTimeout(Duration.ofMillis(50));
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("cancel", m -> {
            getContext().cancelReceiveTimeout();
            getSender().tell(getContext().getReceiveTimeout(), getSelf());
          })
          .matchEquals("future", m -> {
            ActorRef replyTo = getSender();
            log().info("answering through a future on {}", getContext().getDispatcher());
            CompletableFuture.supplyAsync(() -> "from the dispatcher", getContext().getDispatcher())
                .thenAccept(r -> replyTo.tell(r, ActorRef.noSender()));
          })
          .match(ReceiveTimeout.class, t -> getContext().getParent().tell("timed out", getSelf()))
          .build();
    }
  }

  @Test
  void anAbstractLoggingActorUsesTheContextsPekkoNames(ActorSystem system, TestKit kit) {
    ActorRef worker = system.actorOf(Props.create(Worker.class));
    kit.send(worker, "cancel");
    kit.expectMsg(Duration.ZERO);
    kit.send(worker, "future");
    kit.expectMsg("from the dispatcher");
  }

  @Test
  void theSystemsPekkoNamesAreItsOwnParts(ActorSystem system, TestKit kit) {
    assertSame(system.scheduler(), system.getScheduler());
    assertSame(system.eventStream(), system.getEventStream());
    assertSame(system.dispatcher(), system.getDispatcher());
    system.getEventStream().subscribe(kit.getRef(), String.class);
    system.getScheduler().scheduleOnce(Duration.ofMillis(10), () -> system.getEventStream().publish("tick"), system.getDispatcher());
    kit.expectMsg("tick");
  }

  @Test
  void thePhaseMethodsNameTheBuiltInPhasesInOrder(ActorSystem system, TestKit kit) throws Exception {
    List<String> phases =
        List.of(
            CoordinatedShutdown.PhaseBeforeServiceUnbind(),
            CoordinatedShutdown.PhaseServiceUnbind(),
            CoordinatedShutdown.PhaseServiceRequestsDone(),
            CoordinatedShutdown.PhaseServiceStop(),
            CoordinatedShutdown.PhaseBeforeActorSystemTerminate(),
            CoordinatedShutdown.PhaseActorSystemTerminate());
    assertEquals(
        List.of(
            CoordinatedShutdown.PHASE_BEFORE_SERVICE_UNBIND,
            CoordinatedShutdown.PHASE_SERVICE_UNBIND,
            CoordinatedShutdown.PHASE_SERVICE_REQUESTS_DONE,
            CoordinatedShutdown.PHASE_SERVICE_STOP,
            CoordinatedShutdown.PHASE_BEFORE_ACTOR_SYSTEM_TERMINATE,
            CoordinatedShutdown.PHASE_ACTOR_SYSTEM_TERMINATE),
        phases);
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    List<String> ran = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    for (String phase : phases) {
      cs.addTask(phase, "record " + phase, () -> {
        ran.add(phase);
        return CompletableFuture.completedFuture(Done.getInstance());
      });
    }
    cs.runAll(CoordinatedShutdown.unknownReason()).toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
    assertEquals(phases, List.copyOf(ran), "the tasks ran in the order of the phases the methods name");
  }
}
