package dev.troupe.actor.tests.typed;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.typed.delivery.ProducerController;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Reliable delivery between two nodes on 127.0.0.1: the producer controller on one, the consumer
 * controller on the other, the messages between them (and the refs they hold) written by Jackson.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReliableDeliveryAcrossNodesTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private ActorSystem<Void> a;
  private ActorSystem<Void> b;

  private static Config node() {
    return ConfigFactory.parseString(
        "troupe.actor.provider = remote\n"
            + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
            + "troupe.remote.canonical.port = 0\n"
            + "troupe.serialization.bindings {\n"
            + "  \"" + ProducerController.Command.class.getName() + "\" = jackson-cbor\n"
            + "  \"" + ConsumerController.Command.class.getName() + "\" = jackson-cbor\n"
            + "}\n");
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

  private static Behavior<ProducerController.RequestNext<String>> producer(int count) {
    int[] next = {1};
    return Behaviors.receiveMessage(req -> {
      if (next[0] <= count) {
        req.sendNextTo().tell("m" + next[0]++);
      }
      return Behaviors.same();
    });
  }

  @Test
  void theConsumerOnTheOtherNodeGetsEveryMessageInOrder() {
    ActorRef<ProducerController.Command<String>> controller = Adapter.spawn(Adapter.toClassic(a),
        ProducerController.create(String.class, "remote", Optional.empty()), "producer-controller");
    ActorRef<ProducerController.Command<String>> controllerOnA = Adapter.toTyped(Adapter.toClassic(b)
        .actorSelection(Adapter.toClassic(a).address() + "/user/producer-controller")
        .resolveOne(WAIT).toCompletableFuture().join());
    TestProbe<String> out = TestProbe.create(b);
    ActorRef<ConsumerController.Command<String>> consumerController =
        Adapter.spawn(Adapter.toClassic(b), ConsumerController.create(ConsumerController.Settings.create(b)
            .withFlowControlWindow(10)), "consumer-controller");
    consumerController.tell(new ConsumerController.Start<>(Adapter.spawn(Adapter.toClassic(b),
        Behaviors.<ConsumerController.Delivery<String>>receiveMessage(d -> {
          out.getRef().tell(d.message());
          d.confirmTo().tell(ConsumerController.confirmed());
          return Behaviors.same();
        }), "consumer")));
    consumerController.tell(new ConsumerController.RegisterToProducerController<>(controllerOnA));
    controller.tell(new ProducerController.Start<>(Adapter.spawn(Adapter.toClassic(a), producer(100), "producer")));
    for (int i = 1; i <= 100; i++) {
      out.expectMessage(WAIT, "m" + i);
    }
  }
}
