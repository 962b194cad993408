package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.typed.delivery.ConsumerController.Delivery;
import dev.troupe.actor.typed.delivery.ConsumerController.SequencedMessage;
import dev.troupe.actor.typed.delivery.ProducerController;
import dev.troupe.actor.typed.delivery.ProducerController.MessageWithConfirmation;
import dev.troupe.actor.typed.delivery.ProducerController.RequestNext;
import dev.troupe.actor.typed.delivery.internal.ProducerControllerImpl;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Point-to-point reliable delivery without loss: order, flow control, confirmations to the
 * producer, duplicates and gaps seen by the consumer controller, a replaced consumer controller,
 * and the settings.
 */
class ReliableDeliveryTest {
  static final Duration QUIET = Duration.ofMillis(300);

  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("delivery");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  private <T> ActorRef<T> spawn(Behavior<T> behavior) {
    return Adapter.spawnAnonymous(Adapter.toClassic(system), behavior);
  }

  /**
   * A producer that sends "m1" to "m{count}", one for each {@link RequestNext}: asking for a
   * confirmation to {@code confirmations} when that is not null.
   */
  static Behavior<RequestNext<String>> producer(int count, ActorRef<Long> confirmations) {
    return producerOf(count, (req, m) -> {
      if (confirmations == null) {
        req.sendNextTo().tell(m);
      } else {
        req.askNextTo().tell(new MessageWithConfirmation<>(m, confirmations));
      }
    });
  }

  /** A producer that hands "m1" to "m{count}" to {@code send}, one for each request it gets. */
  static <R> Behavior<R> producerOf(int count, BiConsumer<R, String> send) {
    return Behaviors.setup(ctx -> {
      int[] next = {1};
      return Behaviors.receiveMessage(req -> {
        if (next[0] <= count) {
          send.accept(req, "m" + next[0]++);
        }
        return Behaviors.same();
      });
    });
  }

  /** A consumer that tells {@code out} each message and confirms it at once. */
  static Behavior<Delivery<String>> confirmingConsumer(ActorRef<Object> out) {
    return Behaviors.receiveMessage(d -> {
      out.tell(d.message());
      d.confirmTo().tell(ConsumerController.confirmed());
      return Behaviors.same();
    });
  }

  static ConsumerController.Settings consumerSettings(ActorSystem<?> system) {
    return ConsumerController.Settings.create(system)
        .withResendIntervalMin(Duration.ofMillis(100))
        .withResendIntervalMax(Duration.ofSeconds(1));
  }

  @Test
  void everyMessageArrivesOnceInOrder() {
    Probe<Object> out = new Probe<>(system);
    ActorRef<ProducerController.Command<String>> pc =
        spawn(ProducerController.create(String.class, "p", Optional.empty()));
    ActorRef<ConsumerController.Command<String>> cc = spawn(ConsumerController.create());
    cc.tell(new ConsumerController.Start<>(spawn(confirmingConsumer(out.ref()))));
    cc.tell(new ConsumerController.RegisterToProducerController<>(pc));
    pc.tell(new ProducerController.Start<>(spawn(producer(500, null))));
    for (int i = 1; i <= 500; i++) {
      out.expect("m" + i);
    }
    out.expectNothing(QUIET);
  }

  @Test
  void theProducerIsNotAskedBeyondTheWindowWhileTheConsumerDoesNotConfirm() {
    Probe<RequestNext<String>> producer = new Probe<>(system);
    Probe<Delivery<String>> consumer = new Probe<>(system);
    ActorRef<ProducerController.Command<String>> pc =
        spawn(ProducerController.create(String.class, "p", Optional.empty()));
    ActorRef<ConsumerController.Command<String>> cc =
        spawn(ConsumerController.create(consumerSettings(system).withFlowControlWindow(10)));
    cc.tell(new ConsumerController.Start<>(consumer.ref()));
    pc.tell(new ProducerController.RegisterConsumer<>(cc));
    pc.tell(new ProducerController.Start<>(producer.ref()));
    for (int i = 1; i <= 10; i++) {
      @SuppressWarnings("unchecked")
      RequestNext<String> req = producer.expectClass(RequestNext.class);
      assertEquals(i, req.currentSeqNr(), "the sequence number the producer is asked for");
      req.sendNextTo().tell("m" + i);
    }
    producer.expectNothing(QUIET); // the window is used up: 10 sent, none confirmed
    Delivery<?> d = consumer.expectClass(Delivery.class);
    assertEquals("m1", d.message());
    assertEquals(1, d.seqNr());
    assertEquals("p", d.producerId());
    consumer.expectNothing(QUIET); // one delivery at a time
    for (int i = 2; i <= 5; i++) {
      d.confirmTo().tell(ConsumerController.confirmed());
      d = consumer.expectClass(Delivery.class);
      assertEquals("m" + i, d.message());
    }
    producer.expectNothing(QUIET); // 4 confirmed: 6 of the window left, not asked for more yet
    // confirming m5 leaves 5 of the window: the consumer controller asks for 10 more
    d.confirmTo().tell(ConsumerController.confirmed());
    @SuppressWarnings("unchecked")
    RequestNext<String> more = producer.expectClass(RequestNext.class);
    assertEquals(11, more.currentSeqNr());
    assertEquals(5, more.confirmedSeqNr(), "what the consumer confirmed");
  }

  @Test
  void messageWithConfirmationIsAnsweredWithItsSeqNrOnceConfirmed() {
    Probe<RequestNext<String>> producer = new Probe<>(system);
    Probe<Delivery<String>> consumer = new Probe<>(system);
    Probe<Long> replies = new Probe<>(system);
    ActorRef<ProducerController.Command<String>> pc =
        spawn(ProducerController.create(String.class, "p", Optional.empty()));
    ActorRef<ConsumerController.Command<String>> cc = spawn(ConsumerController.create());
    cc.tell(new ConsumerController.Start<>(consumer.ref()));
    cc.tell(new ConsumerController.RegisterToProducerController<>(pc));
    pc.tell(new ProducerController.Start<>(producer.ref()));
    for (int i = 1; i <= 3; i++) {
      @SuppressWarnings("unchecked")
      RequestNext<String> req = producer.expectClass(RequestNext.class);
      req.askNextTo().tell(new MessageWithConfirmation<>("m" + i, replies.ref()));
    }
    for (long i = 1; i <= 3; i++) {
      Delivery<?> d = consumer.expectClass(Delivery.class);
      assertEquals(i, d.seqNr());
      replies.expectNothing(Duration.ofMillis(100)); // not before the consumer confirms
      d.confirmTo().tell(ConsumerController.confirmed());
      replies.expect(i);
    }
  }

  /** A consumer controller that a test feeds in place of its producer controller, past its first message. */
  private record Fed(Probe<Object> producer, Probe<Delivery<String>> consumer,
      ActorRef<ConsumerController.Command<String>> cc, ActorRef<ProducerController.Command<String>> from) {
    void send(long seqNr) {
      cc.tell(new SequencedMessage<>("p", seqNr, "m" + seqNr, false, false, from));
    }

    /** Takes deliveries {@code first..last} in order, confirming each. */
    void expectAndConfirm(int first, int last) {
      for (int i = first; i <= last; i++) {
        Delivery<?> d = consumer.expectClass(Delivery.class);
        assertEquals("m" + i, d.message());
        d.confirmTo().tell(ConsumerController.confirmed());
      }
    }
  }

  private Fed fedPastItsFirstMessage() {
    Probe<Object> fakeProducer = new Probe<>(system);
    Probe<Delivery<String>> consumer = new Probe<>(system);
    ActorRef<ConsumerController.Command<String>> cc = spawn(ConsumerController.create(consumerSettings(system)));
    cc.tell(new ConsumerController.Start<>(consumer.ref()));
    ActorRef<ProducerController.Command<String>> from = fakeProducer.ref().unsafeUpcast();
    cc.tell(new SequencedMessage<>("p", 1, "m1", true, false, from));
    assertEquals(new ProducerControllerImpl.Request<>(0, 50, true, false), fakeProducer.receive(), "the answer to the first message");
    return new Fed(fakeProducer, consumer, cc, from);
  }

  @Test
  void theConsumerControllerDropsDuplicatesAndAsksForWhatIsMissing() {
    Fed f = fedPastItsFirstMessage();
    f.send(1); // a duplicate
    f.send(2);
    f.send(2); // a duplicate
    f.send(4); // 3 is missing
    assertEquals(new ProducerControllerImpl.Resend<>(3), f.producer().receive(), "what the consumer controller asks for");
    f.send(3);
    f.send(4);
    f.cc().tell(new SequencedMessage<>("p", 1, "m1", true, false, f.from())); // the first again: answered again
    assertEquals(new ProducerControllerImpl.Request<>(0, 50, true, false), f.producer().receive(), "the answer to the first message again");
    f.expectAndConfirm(1, 4);
    f.consumer().expectNothing(QUIET);
  }

  @Test
  void messagesBeyondTheGrantedDemandAreDroppedNotBuffered() {
    Fed f = fedPastItsFirstMessage();
    for (int i = 2; i <= 52; i++) { // 51 and 52 go past the 50 granted
      f.send(i);
    }
    f.expectAndConfirm(1, 50);
    f.consumer().expectNothing(QUIET);
    f.send(51); // within the demand granted since
    f.expectAndConfirm(51, 51);
  }

  @Test
  void theConsumerControllerFollowsANewProducerControllerFromItsFirstMessage() {
    Probe<Object> oldProducer = new Probe<>(system);
    Probe<Object> newProducer = new Probe<>(system);
    Probe<Object> consumer = new Probe<>(system);
    ActorRef<ConsumerController.Command<String>> cc = spawn(ConsumerController.create(consumerSettings(system)));
    cc.tell(new ConsumerController.Start<>(spawn(confirmingConsumer(consumer.ref()))));
    ActorRef<ProducerController.Command<String>> from = oldProducer.ref().unsafeUpcast();
    cc.tell(new SequencedMessage<>("old", 100, "old-100", true, false, from));
    assertEquals(new ProducerControllerImpl.Request<>(99, 149, true, false), oldProducer.receive(), "the answer to the first message");
    consumer.expect("old-100");
    cc.tell(new SequencedMessage<>("new", 2, "new-2", false, false, newProducer.ref().unsafeUpcast())); // not its first: ignored
    cc.tell(new SequencedMessage<>("new", 1, "new-1", true, false, newProducer.ref().unsafeUpcast()));
    assertEquals(new ProducerControllerImpl.Request<>(0, 50, true, false), newProducer.receive(),
        "the new producer controller's demand, from its own first message");
    cc.tell(new SequencedMessage<>("old", 101, "old-101", false, false, from)); // the old one's: ignored
    cc.tell(new SequencedMessage<>("new", 2, "new-2", false, false, newProducer.ref().unsafeUpcast()));
    consumer.expect("new-1");
    consumer.expect("new-2");
    consumer.expectNothing(QUIET);
  }

  @Test
  void aNewConsumerControllerGetsTheUnconfirmedMessagesAgain() {
    Probe<Long> replies = new Probe<>(system);
    Probe<Object> watcher = new Probe<>(system);
    ActorRef<ProducerController.Command<String>> pc =
        spawn(ProducerController.create(String.class, "p", Optional.empty()));
    Probe<Delivery<String>> consumer1 = new Probe<>(system);
    ActorRef<ConsumerController.Command<String>> cc1 = spawn(ConsumerController.create(consumerSettings(system)));
    ActorRef<Delivery<String>> deliveries1 = spawn(Behaviors.<Delivery<String>>receiveMessage(d -> {
      consumer1.ref().tell(d);
      return Behaviors.same();
    }));
    cc1.tell(new ConsumerController.Start<>(deliveries1));
    cc1.tell(new ConsumerController.RegisterToProducerController<>(pc));
    pc.tell(new ProducerController.Start<>(spawn(producer(20, replies.ref()))));
    for (long i = 1; i <= 3; i++) {
      Delivery<?> d = consumer1.expectClass(Delivery.class);
      assertEquals(i, d.seqNr());
      if (i < 3) {
        d.confirmTo().tell(ConsumerController.confirmed());
        replies.expect(i); // the producer controller knows it is confirmed
      }
    }
    // m3 was delivered and not confirmed: the consumer (and with it its controller) stops
    watcher.watch(cc1);
    Adapter.toClassic(system).stop(Adapter.toClassic(deliveries1));
    watcher.expectTerminated(cc1);
    Probe<Object> consumer2 = new Probe<>(system);
    ActorRef<ConsumerController.Command<String>> cc2 = spawn(ConsumerController.create(consumerSettings(system)));
    cc2.tell(new ConsumerController.Start<>(spawn(confirmingConsumer(consumer2.ref()))));
    cc2.tell(new ConsumerController.RegisterToProducerController<>(pc));
    for (long i = 3; i <= 20; i++) {
      consumer2.expect("m" + i);
      replies.expect(i);
    }
    consumer2.expectNothing(QUIET);
    consumer1.expectNothing(Duration.ZERO);
  }

  @Test
  void settingsComeFromTheConfigurationAndMalformedValuesNameTheirKey() {
    ConsumerController.Settings c = ConsumerController.Settings.create(system);
    assertEquals(50, c.flowControlWindow());
    assertEquals(Duration.ofSeconds(2), c.resendIntervalMin());
    assertEquals(Duration.ofSeconds(30), c.resendIntervalMax());
    assertFalse(c.onlyFlowControl());
    assertTrue(c.withOnlyFlowControl(true).onlyFlowControl());
    assertEquals(7, c.withFlowControlWindow(7).flowControlWindow());
    assertEquals(50, c.flowControlWindow(), "a copy leaves the original as it is");
    assertEquals(Duration.ofSeconds(1), ProducerController.Settings.create(system).resendFirstInterval());
    assertEquals(Duration.ofMillis(5),
        ProducerController.Settings.create(system).withResendFirstInterval(Duration.ofMillis(5)).resendFirstInterval());

    assertKeyNamed(ConsumerController.CONFIG_PATH, "flow-control-window = many", "flow-control-window");
    assertKeyNamed(ConsumerController.CONFIG_PATH, "flow-control-window = 0", "flow-control-window");
    assertKeyNamed(ConsumerController.CONFIG_PATH, "resend-interval-min = soon", "resend-interval-min");
    assertKeyNamed(ConsumerController.CONFIG_PATH, "resend-interval-max = 1s", "resend-interval-max"); // below the min (2s)
    assertKeyNamed(ConsumerController.CONFIG_PATH, "only-flow-control = perhaps", "only-flow-control");
    assertKeyNamed(ProducerController.CONFIG_PATH, "resend-first-interval = 0s", "resend-first-interval");

    assertThrows(IllegalArgumentException.class, () -> c.withFlowControlWindow(0));
    assertThrows(IllegalArgumentException.class, () -> c.withResendIntervalMax(Duration.ofSeconds(1)));
    assertThrows(IllegalArgumentException.class,
        () -> ProducerController.create(String.class, "p", Optional.of(Behaviors.empty())));
    assertThrows(IllegalArgumentException.class, () -> ProducerController.create(String.class, " ", Optional.empty()));
  }

  private void assertKeyNamed(String path, String override, String key) {
    Config config = ConfigFactory.parseString(override).withFallback(system.settings().config().getConfig(path));
    ConfigurationException e = assertThrows(ConfigurationException.class, () -> {
      if (path.equals(ConsumerController.CONFIG_PATH)) {
        ConsumerController.Settings.create(config);
      } else {
        ProducerController.Settings.create(config);
      }
    }, override);
    assertTrue(e.getMessage().contains("'" + path + "." + key + "'"), e.getMessage());
  }
}
