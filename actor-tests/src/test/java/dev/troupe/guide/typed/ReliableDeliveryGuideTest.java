package dev.troupe.guide.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.Done;
import dev.troupe.actor.typed.delivery.ProducerController;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import dev.troupe.testkit.typed.ActorTestKitExtension;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The "reliable delivery" section of the typed guide (docs/typed.md): compiled and run. */
class ReliableDeliveryGuideTest {
  @RegisterExtension
  static final ActorTestKitExtension testKit = new ActorTestKitExtension();

  // tag::typed-delivery-actors[]
  record Job(String text) {}

  /** Sends the next job each time its controller asks for one. */
  static Behavior<ProducerController.RequestNext<Job>> jobSource(List<String> texts) {
    Queue<String> left = new ArrayDeque<>(texts);
    return Behaviors.receiveMessage(next -> {
      if (!left.isEmpty()) {
        next.sendNextTo().tell(new Job(left.remove()));           // one message per RequestNext
      }
      return Behaviors.same();
    });
  }

  /** Handles each job, then confirms it: the next one comes after the confirmation. */
  static Behavior<ConsumerController.Delivery<Job>> jobSink(ActorRef<String> done) {
    return Behaviors.receiveMessage(delivery -> {
      done.tell(delivery.message().text() + " #" + delivery.seqNr());
      delivery.confirmTo().tell(ConsumerController.confirmed());
      return Behaviors.same();
    });
  }
  // end::typed-delivery-actors[]

  @Test
  void everyJobArrivesOnceInOrder() {
    TestProbe<String> probe = testKit.createTestProbe();
    ActorRef<String> done = probe.getRef();
    // tag::typed-delivery-wiring[]
    ActorRef<ProducerController.Command<Job>> producerController =
        testKit.spawn(ProducerController.create(Job.class, "jobs", Optional.empty()));
    ActorRef<ConsumerController.Command<Job>> consumerController =
        testKit.spawn(ConsumerController.create());
    consumerController.tell(new ConsumerController.Start<>(testKit.spawn(jobSink(done))));
    consumerController.tell(new ConsumerController.RegisterToProducerController<>(producerController));
    producerController.tell(new ProducerController.Start<>(testKit.spawn(jobSource(List.of("a", "b", "c")))));
    // end::typed-delivery-wiring[]
    probe.expectMessage("a #1");
    probe.expectMessage("b #2");
    probe.expectMessage("c #3");
  }

  @Test
  void aConfirmationIsAnsweredAndSettingsAreCopies() {
    ActorSystem<Void> system = testKit.testKit().system();
    TestProbe<Long> confirmations = testKit.createTestProbe();
    TestProbe<String> done = testKit.createTestProbe();
    TestProbe<ProducerController.RequestNext<Job>> producer = testKit.createTestProbe();
    // tag::typed-delivery-settings[]
    ConsumerController.Settings settings = ConsumerController.Settings.create(system)
        .withFlowControlWindow(20)                       // troupe.reliable-delivery.consumer-controller.*
        .withResendIntervalMin(Duration.ofMillis(500));
    ActorRef<ConsumerController.Command<Job>> consumerController =
        testKit.spawn(ConsumerController.create(settings));
    // end::typed-delivery-settings[]
    ActorRef<ProducerController.Command<Job>> producerController =
        testKit.spawn(ProducerController.create(Job.class, "asked", Optional.empty()));
    consumerController.tell(new ConsumerController.Start<>(testKit.spawn(jobSink(done.getRef()))));
    producerController.tell(new ProducerController.RegisterConsumer<>(consumerController));
    producerController.tell(new ProducerController.Start<>(producer.getRef()));
    ProducerController.RequestNext<Job> next = producer.receiveMessage();
    ActorRef<Long> replyTo = confirmations.getRef();
    // tag::typed-delivery-confirmation[]
    next.askNextTo().tell(new ProducerController.MessageWithConfirmation<>(new Job("d"), replyTo));
    // end::typed-delivery-confirmation[]
    done.expectMessage("d #1");
    assertEquals(1L, confirmations.receiveMessage(), "the job's seqNr, once the consumer confirmed it");
  }

  // tag::typed-work-pulling-worker[]
  static final ServiceKey<ConsumerController.Command<Job>> WORKERS =
      ServiceKey.create(ConsumerController.serviceKeyClass(), "job-workers");

  /** A worker: registers its consumer controller under a key, handles and confirms each job. */
  static Behavior<ConsumerController.Delivery<Job>> worker(
      ServiceKey<ConsumerController.Command<Job>> key, String name, ActorRef<String> done) {
    return Behaviors.setup(ctx -> {
      ActorRef<ConsumerController.Command<Job>> consumerController =
          ctx.spawn(ConsumerController.create(), "consumer-controller");
      consumerController.tell(new ConsumerController.Start<>(ctx.getSelf()));
      ctx.getSystem().receptionist().tell(Receptionist.register(key, consumerController));
      return Behaviors.receiveMessage(delivery -> {
        done.tell(delivery.message().text() + " by " + name);
        delivery.confirmTo().tell(ConsumerController.confirmed());
        return Behaviors.same();
      });
    });
  }
  // end::typed-work-pulling-worker[]

  // tag::typed-work-pulling-manager[]
  /** Sends the next job each time some worker has room for one. */
  static Behavior<WorkPullingProducerController.RequestNext<Job>> jobManager(List<String> texts) {
    Queue<String> left = new ArrayDeque<>(texts);
    return Behaviors.receiveMessage(next -> {
      if (!left.isEmpty()) {
        next.sendNextTo().tell(new Job(left.remove()));
      }
      return Behaviors.same();
    });
  }
  // end::typed-work-pulling-manager[]

  @Test
  void theJobsAreSharedOutAmongTheWorkers() {
    TestProbe<String> probe = testKit.createTestProbe();
    ActorRef<String> done = probe.getRef();
    // tag::typed-work-pulling-wiring[]
    ActorRef<WorkPullingProducerController.Command<Job>> controller = testKit.spawn(
        WorkPullingProducerController.create(Job.class, "job-manager", WORKERS, Optional.empty()));
    testKit.spawn(worker(WORKERS, "w1", done));
    testKit.spawn(worker(WORKERS, "w2", done));
    controller.tell(new WorkPullingProducerController.Start<>(testKit.spawn(jobManager(List.of("a", "b", "c", "d")))));
    // end::typed-work-pulling-wiring[]
    Set<String> jobs = new HashSet<>();
    for (int i = 0; i < 4; i++) {
      jobs.add(probe.receiveMessage().split(" ")[0]);
    }
    assertEquals(Set.of("a", "b", "c", "d"), jobs, "every job done once");
  }

  @Test
  void aWorkPullingConfirmationIsDoneAndTheStatsCountTheWorkers() {
    TestProbe<Done> confirmations = testKit.createTestProbe();
    TestProbe<String> done = testKit.createTestProbe();
    TestProbe<WorkPullingProducerController.RequestNext<Job>> producer = testKit.createTestProbe();
    TestProbe<WorkPullingProducerController.WorkerStats> stats = testKit.createTestProbe();
    ServiceKey<ConsumerController.Command<Job>> key = ServiceKey.create(ConsumerController.serviceKeyClass(), "asking-workers");
    ActorRef<WorkPullingProducerController.Command<Job>> controller = testKit.spawn(
        WorkPullingProducerController.create(Job.class, "asking-manager", key, Optional.empty()));
    testKit.spawn(worker(key, "w3", done.getRef()));
    controller.tell(new WorkPullingProducerController.Start<>(producer.getRef()));
    WorkPullingProducerController.RequestNext<Job> next = producer.receiveMessage();
    ActorRef<Done> replyTo = confirmations.getRef();
    ActorRef<WorkPullingProducerController.WorkerStats> statsTo = stats.getRef();
    // tag::typed-work-pulling-confirmation[]
    next.askNextTo().tell(new WorkPullingProducerController.MessageWithConfirmation<>(new Job("e"), replyTo));
    controller.tell(new WorkPullingProducerController.GetWorkerStats<>(statsTo));
    // end::typed-work-pulling-confirmation[]
    assertEquals(Done.getInstance(), confirmations.receiveMessage(), "Done once a worker confirmed the job");
    assertEquals(1, stats.receiveMessage().numberOfWorkers(), "the worker that got the job");
  }
}
