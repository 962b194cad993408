package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.typed.delivery.ConsumerController.SequencedMessage;
import dev.troupe.actor.typed.delivery.ProducerController;
import dev.troupe.actor.typed.delivery.internal.ProducerControllerImpl;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reliable delivery over a lossy link: two forwarding actors stand between the controllers, one
 * each way, and drop chosen messages (or random ones); the consumer still gets every message once,
 * in order.
 */
class ReliableDeliveryLossTest {
  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("delivery-loss");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  private <T> ActorRef<T> spawn(Behavior<T> behavior) {
    return Adapter.spawnAnonymous(Adapter.toClassic(system), behavior);
  }

  /** Forwards to {@code target} what {@code drop} lets through, after {@code rewrite}. */
  private static Behavior<Object> link(ActorRef<Object> target, Predicate<Object> drop,
      UnaryOperator<Object> rewrite, ConcurrentLinkedQueue<Object> dropped) {
    return Behaviors.receiveMessage(m -> {
      if (drop.test(m)) {
        dropped.add(m);
      } else {
        target.tell(rewrite.apply(m));
      }
      return Behaviors.same();
    });
  }

  /**
   * Registers with {@code pc} a link to {@code cc} that drops what {@code dropToConsumer} picks, and
   * has {@code cc} answer through a link to {@code pc} that drops what {@code dropToProducer} picks.
   */
  private void connectThroughLinks(ActorRef<ProducerController.Command<String>> pc,
      ActorRef<ConsumerController.Command<String>> cc, Predicate<Object> dropToConsumer,
      Predicate<Object> dropToProducer, ConcurrentLinkedQueue<Object> dropped) {
    ActorRef<ProducerController.Command<String>> toProducer =
        spawn(link(pc.unsafeUpcast(), dropToProducer, m -> m, dropped)).unsafeUpcast();
    ActorRef<Object> toConsumer = spawn(link(cc.unsafeUpcast(), dropToConsumer, m -> m instanceof SequencedMessage<?> s
        ? new SequencedMessage<>(s.producerId(), s.seqNr(), (String) s.message(), s.first(), s.ack(), toProducer)
        : m, dropped));
    pc.tell(new ProducerController.RegisterConsumer<>(toConsumer.unsafeUpcast()));
  }

  /**
   * Runs {@code count} messages from a producer to a confirming consumer through the two lossy
   * links, and checks that they arrive once, in order, within {@code within}.
   *
   * @return what the links dropped
   */
  private List<Object> runThroughLossyLinks(int count, int window, Predicate<Object> dropToConsumer,
      Predicate<Object> dropToProducer, Duration within) {
    Probe<Object> out = new Probe<>(system);
    ConcurrentLinkedQueue<Object> dropped = new ConcurrentLinkedQueue<>();
    ActorRef<ProducerController.Command<String>> pc = spawn(ProducerController.create(String.class, "lossy",
        Optional.empty(), ProducerController.Settings.create(system).withResendFirstInterval(Duration.ofMillis(100))));
    ActorRef<ConsumerController.Command<String>> cc = spawn(ConsumerController.create(
        ReliableDeliveryTest.consumerSettings(system).withFlowControlWindow(window)
            .withResendIntervalMin(Duration.ofMillis(50)).withResendIntervalMax(Duration.ofMillis(400))));
    cc.tell(new ConsumerController.Start<>(spawn(ReliableDeliveryTest.confirmingConsumer(out.ref()))));
    connectThroughLinks(pc, cc, dropToConsumer, dropToProducer, dropped);
    pc.tell(new ProducerController.Start<>(spawn(ReliableDeliveryTest.producer(count, null))));
    long deadline = System.nanoTime() + within.toNanos();
    for (int i = 1; i <= count; i++) {
      Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
      Object m = out.poll(left);
      if (m == null) {
        throw new AssertionError("message m" + i + " of " + count + " did not arrive within " + within
            + " (" + dropped.size() + " messages dropped)");
      }
      assertEquals("m" + i, m, "the consumer's next message");
    }
    out.expectNothing(Duration.ofMillis(300));
    return new ArrayList<>(dropped);
  }

  /** Drops each message that {@code chosen} picks, the first time it passes. */
  private static Predicate<Object> once(Predicate<Object> chosen) {
    Set<Object> seen = new HashSet<>(); // one link actor calls it
    return m -> chosen.test(m) && seen.add(m);
  }

  private static Predicate<Object> seqNrs(long... nrs) {
    return m -> {
      if (m instanceof SequencedMessage<?> s) {
        for (long n : nrs) {
          if (s.seqNr() == n) {
            return true;
          }
        }
      }
      return false;
    };
  }

  @Test
  void lostMessagesAreSentAgain() {
    // the first (answered by nothing until it is sent again), one in the middle, two in a row, the last
    List<Object> dropped = runThroughLossyLinks(
        30, 10, once(seqNrs(1, 7, 15, 16, 30)), m -> false, Duration.ofSeconds(5));
    assertEquals(5, dropped.size(), "dropped: " + dropped);
  }

  @Test
  void lostRequestsAndResendsAreAskedForAgain() {
    int[] requests = {0};
    Predicate<Object> everyOtherRequest = m -> m instanceof ProducerControllerImpl.Request<?> && requests[0]++ % 2 == 0;
    Predicate<Object> firstResend = once(m -> m instanceof ProducerControllerImpl.Resend<?>);
    List<Object> dropped = runThroughLossyLinks(
        40, 6, once(seqNrs(9)), everyOtherRequest.or(firstResend), Duration.ofSeconds(5));
    assertTrue(dropped.stream().anyMatch(m -> m instanceof ProducerControllerImpl.Request<?>), "dropped: " + dropped);
    assertTrue(dropped.stream().anyMatch(m -> m instanceof ProducerControllerImpl.Resend<?>), "dropped: " + dropped);
  }

  @Test
  void lostAcksDoNotKeepConfirmationsBack() {
    Probe<Long> replies = new Probe<>(system);
    ConcurrentLinkedQueue<Object> dropped = new ConcurrentLinkedQueue<>();
    Probe<Object> out = new Probe<>(system);
    ActorRef<ProducerController.Command<String>> pc = spawn(ProducerController.create(String.class, "acks", Optional.empty()));
    ActorRef<ConsumerController.Command<String>> cc = spawn(ConsumerController.create(
        ReliableDeliveryTest.consumerSettings(system).withResendIntervalMin(Duration.ofMillis(50))));
    int[] acks = {0};
    cc.tell(new ConsumerController.Start<>(spawn(ReliableDeliveryTest.confirmingConsumer(out.ref()))));
    connectThroughLinks(pc, cc, m -> false, m -> m instanceof ProducerControllerImpl.Ack<?> && acks[0]++ < 3, dropped);
    pc.tell(new ProducerController.Start<>(spawn(ReliableDeliveryTest.producer(5, replies.ref()))));
    Set<Long> confirmed = new HashSet<>();
    for (int i = 1; i <= 5; i++) {
      out.expect("m" + i);
      confirmed.add(replies.expectClass(Long.class)); // the first three via the consumer's later ones or a timeout
    }
    assertEquals(Set.of(1L, 2L, 3L, 4L, 5L), confirmed);
    assertEquals(3, dropped.size(), "dropped: " + dropped);
  }

  @Test
  void manyMessagesWithRandomLossArriveOnceInOrder() {
    Random random = new Random(42);
    Random back = new Random(7);
    List<Object> dropped = runThroughLossyLinks(
        2000, 20, m -> random.nextInt(100) < 5, m -> back.nextInt(100) < 5, Duration.ofSeconds(10));
    assertTrue(dropped.size() > 50, "some were dropped: " + dropped.size());
  }

  @Test
  void withOnlyFlowControlALostMessageStaysLost() {
    Probe<Object> out = new Probe<>(system);
    ConcurrentLinkedQueue<Object> dropped = new ConcurrentLinkedQueue<>();
    ActorRef<ProducerController.Command<String>> pc = spawn(ProducerController.create(String.class, "flow", Optional.empty()));
    ActorRef<ConsumerController.Command<String>> cc = spawn(ConsumerController.create(
        ReliableDeliveryTest.consumerSettings(system).withOnlyFlowControl(true).withFlowControlWindow(4)));
    cc.tell(new ConsumerController.Start<>(spawn(ReliableDeliveryTest.confirmingConsumer(out.ref()))));
    connectThroughLinks(pc, cc, once(seqNrs(3)), m -> m instanceof ProducerControllerImpl.Resend<?>, dropped);
    pc.tell(new ProducerController.Start<>(spawn(ReliableDeliveryTest.producer(12, null))));
    for (int i = 1; i <= 12; i++) {
      if (i != 3) {
        out.expect("m" + i);
      }
    }
    out.expectNothing(Duration.ofMillis(300));
    assertEquals(1, dropped.size(), "dropped (no Resend was sent): " + dropped);
  }
}
