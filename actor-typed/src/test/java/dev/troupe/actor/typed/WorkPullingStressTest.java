package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.typed.delivery.ConsumerController.Delivery;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Many messages while workers come and go: a conductor stops a worker (or takes it off the listing)
 * and starts a new one every few hundred messages processed; every message is processed at least
 * once.
 */
class WorkPullingStressTest {
  static final int TOTAL = 5000;
  static final int CHURN_EVERY = 250;
  static final int WORKERS = 4;

  private final ServiceKey<ConsumerController.Command<String>> key =
      ServiceKey.create(ConsumerController.serviceKeyClass(), "stress-workers");
  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("work-pulling-stress");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  /** A processed message, told the conductor by a worker. */
  private record Processed(String message) {}

  /**
   * Starts {@link #WORKERS} workers; counts what they process into {@code seen} ({@code processed}
   * counts duplicates too); every {@link #CHURN_EVERY} distinct messages, the oldest worker goes
   * (stopped, or taken off the listing while it runs on) and a new one comes; tells {@code done}
   * once all {@link #TOTAL} messages were processed.
   */
  private Behavior<Object> conductor(Set<String> seen, AtomicInteger processed, AtomicInteger churns, ActorRef<Object> done) {
    return Behaviors.setup(ctx -> {
      ArrayDeque<ActorRef<?>[]> workers = new ArrayDeque<>();
      Runnable startWorker = () -> {
        ActorRef<Delivery<String>> consumer = ctx.spawnAnonymous(Behaviors.<Delivery<String>>receiveMessage(d -> {
          ctx.getSelf().tell(new Processed(d.message()));
          d.confirmTo().tell(ConsumerController.confirmed());
          return Behaviors.same();
        }));
        ActorRef<ConsumerController.Command<String>> cc = ctx.spawnAnonymous(ConsumerController.create(
            ReliableDeliveryTest.consumerSettings(system).withFlowControlWindow(20)));
        cc.tell(new ConsumerController.Start<>(consumer));
        ctx.getSystem().receptionist().tell(Receptionist.register(key, cc));
        workers.addLast(new ActorRef<?>[] {consumer, cc});
      };
      for (int i = 0; i < WORKERS; i++) {
        startWorker.run();
      }
      return Behaviors.receiveMessage(msg -> {
        if (msg instanceof Processed p) {
          processed.incrementAndGet();
          if (seen.add(p.message())) {
            if (seen.size() == TOTAL) {
              done.tell("done");
            } else if (seen.size() % CHURN_EVERY == 0) {
              ActorRef<?>[] oldest = workers.removeFirst();
              if (churns.incrementAndGet() % 2 == 0) {
                ctx.stop(oldest[0]); // its consumer controller stops with it
              } else {
                @SuppressWarnings("unchecked")
                ActorRef<ConsumerController.Command<String>> cc = (ActorRef<ConsumerController.Command<String>>) oldest[1];
                ctx.getSystem().receptionist().tell(Receptionist.deregister(key, cc));
              }
              startWorker.run();
            }
          }
        }
        return Behaviors.same();
      });
    });
  }

  @Test
  void everyMessageIsProcessedAtLeastOnceWhileWorkersComeAndGo() {
    Set<String> seen = ConcurrentHashMap.newKeySet();
    AtomicInteger processed = new AtomicInteger();
    AtomicInteger churns = new AtomicInteger();
    Probe<Object> done = new Probe<>(system);
    ActorRef<WorkPullingProducerController.Command<String>> wpc = Adapter.spawnAnonymous(Adapter.toClassic(system),
        WorkPullingProducerController.create(String.class, "stress", key, Optional.empty()));
    Adapter.spawnAnonymous(Adapter.toClassic(system), conductor(seen, processed, churns, done.ref()));
    WorkPullingTest.awaitWorkers(system, wpc, WORKERS);
    wpc.tell(new WorkPullingProducerController.Start<>(
        Adapter.spawnAnonymous(Adapter.toClassic(system), WorkPullingTest.producer(TOTAL, null))));
    Duration max = Duration.ofSeconds(20);
    if (done.poll(max) == null) {
      fail("only " + seen.size() + " of " + TOTAL + " messages processed in " + max + " (" + churns.get()
          + " workers replaced, " + processed.get() + " deliveries)");
    }
    assertEquals(TOTAL / CHURN_EVERY - 1, churns.get(), "workers replaced");
    WorkPullingTest.awaitWorkers(system, wpc, WORKERS);
  }
}
