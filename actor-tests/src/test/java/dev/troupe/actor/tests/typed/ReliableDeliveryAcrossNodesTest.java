package dev.troupe.actor.tests.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.typed.delivery.ProducerController;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.serialization.Serialization;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Reliable delivery between two nodes on 127.0.0.1: the producer controller on one, the consumer
 * controller on the other. The producer's messages are records of the test's own, and the only
 * binding is the record's: the controllers' messages between the nodes are written by the typed
 * cluster's serializer, bound by its reference.conf, which writes the record with the record's
 * serializer, so the consumer gets the record back (not a map).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class ReliableDeliveryAcrossNodesTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final int COUNT = 100;

  /** The producer's message. */
  record Job(String text, int n) {}

  private ActorSystem<Void> a;
  private ActorSystem<Void> b;

  private static Config node() {
    return ConfigFactory.parseString(
        "troupe.actor.provider = remote\n"
            + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
            + "troupe.remote.canonical.port = 0\n"
            + "troupe.serialization.bindings { \"" + Job.class.getName() + "\" = jackson-cbor }\n");
  }

  @BeforeAll
  void startNodes() {
    a = ActorSystem.create(Behaviors.empty(), "delivery-a", node());
    b = ActorSystem.create(Behaviors.empty(), "delivery-b", node());
  }

  @AfterAll
  void stopNodes() throws Exception {
    a.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    b.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** Sends jobs 1 to {@code COUNT}, the last one asking to be told when it is confirmed. */
  private static Behavior<ProducerController.RequestNext<Job>> producer(ActorRef<Long> confirmations) {
    int[] next = {1};
    return Behaviors.receiveMessage(req -> {
      if (next[0] < COUNT) {
        req.sendNextTo().tell(new Job("m" + next[0], next[0]));
        next[0]++;
      } else if (next[0] == COUNT) {
        req.askNextTo().tell(new ProducerController.MessageWithConfirmation<>(new Job("m" + COUNT, COUNT),
            confirmations));
        next[0]++;
      }
      return Behaviors.same();
    });
  }

  @Test
  void theConsumerOnTheOtherNodeGetsEveryRecordInOrder() {
    for (ActorSystem<Void> s : List.of(a, b)) {
      assertEquals(36, Serialization.get(Adapter.toClassic(s)).serializerFor(ConsumerController.SequencedMessage.class)
          .identifier(), "bound by troupe-cluster-typed's reference.conf to its reliable delivery serializer");
    }
    ActorRef<ProducerController.Command<Job>> controller = Adapter.spawn(Adapter.toClassic(a),
        ProducerController.create(Job.class, "remote", Optional.empty()), "producer-controller");
    ActorRef<ProducerController.Command<Job>> controllerOnA = Adapter.toTyped(Adapter.toClassic(b)
        .actorSelection(Adapter.toClassic(a).address() + "/user/producer-controller")
        .resolveOne(WAIT).toCompletableFuture().join());
    TestProbe<Job> out = TestProbe.create(b);
    TestProbe<Long> confirmations = TestProbe.create(a);
    ActorRef<ConsumerController.Command<Job>> consumerController =
        Adapter.spawn(Adapter.toClassic(b), ConsumerController.create(ConsumerController.Settings.create(b)
            .withFlowControlWindow(10)), "consumer-controller");
    consumerController.tell(new ConsumerController.Start<>(Adapter.spawn(Adapter.toClassic(b),
        Behaviors.<ConsumerController.Delivery<Job>>receiveMessage(d -> {
          out.getRef().tell(d.message()); // a Job: a map here would fail the probe's equality
          d.confirmTo().tell(ConsumerController.confirmed());
          return Behaviors.same();
        }), "consumer")));
    consumerController.tell(new ConsumerController.RegisterToProducerController<>(controllerOnA));
    controller.tell(new ProducerController.Start<>(
        Adapter.spawn(Adapter.toClassic(a), producer(confirmations.getRef()), "producer")));
    for (int i = 1; i <= COUNT; i++) {
      out.expectMessage(WAIT, new Job("m" + i, i));
    }
    confirmations.expectMessage(WAIT, (long) COUNT); // the consumer controller's Ack came back across
  }
}
