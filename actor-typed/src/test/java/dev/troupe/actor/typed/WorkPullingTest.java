package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Done;
import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.typed.delivery.ConsumerController.Delivery;
import dev.troupe.actor.typed.delivery.ProducerController;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController.GetWorkerStats;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController.MessageWithConfirmation;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController.RequestNext;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController.WorkerStats;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Work pulling: the messages spread over the workers listed under a key, each worker's demand, a
 * worker that stops or joins, confirmations, the worker stats, the buffer and the settings.
 */
class WorkPullingTest {
  static final Duration QUIET = Duration.ofMillis(300);

  private final ServiceKey<ConsumerController.Command<String>> key = ServiceKey.create(
      ConsumerController.serviceKeyClass(), "workers-" + System.nanoTime());
  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("work-pulling");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  private <T> ActorRef<T> spawn(Behavior<T> behavior) {
    return Adapter.spawnAnonymous(Adapter.toClassic(system), behavior);
  }

  private void stopActor(ActorRef<?> ref) {
    Adapter.toClassic(system).stop(Adapter.toClassic(ref));
  }

  private ActorRef<WorkPullingProducerController.Command<String>> controller() {
    return spawn(WorkPullingProducerController.create(String.class, "work", key, Optional.empty()));
  }

  /** A producer that sends "m1" to "m{count}", one for each {@link RequestNext}, asking for a confirmation when {@code confirmations} is not null. */
  static Behavior<RequestNext<String>> producer(int count, ActorRef<Done> confirmations) {
    return ReliableDeliveryTest.producerOf(count, (RequestNext<String> req, String m) -> {
      if (confirmations == null) {
        req.sendNextTo().tell(m);
      } else {
        req.askNextTo().tell(new MessageWithConfirmation<>(m, confirmations));
      }
    });
  }

  /** A consumer that tells {@code out} "{name}:{message}" and confirms at once. */
  static Behavior<Delivery<String>> confirming(String name, ActorRef<Object> out) {
    return Behaviors.receiveMessage(d -> {
      out.tell(name + ":" + d.message());
      d.confirmTo().tell(ConsumerController.confirmed());
      return Behaviors.same();
    });
  }

  /** Starts a consumer controller with {@code window} for {@code consumer} and registers it under the key. */
  private ActorRef<ConsumerController.Command<String>> worker(ActorRef<Delivery<String>> consumer, int window) {
    ActorRef<ConsumerController.Command<String>> cc = spawn(ConsumerController.create(
        ReliableDeliveryTest.consumerSettings(system).withFlowControlWindow(window)));
    cc.tell(new ConsumerController.Start<>(consumer));
    system.receptionist().tell(Receptionist.register(key, cc));
    return cc;
  }

  private void awaitWorkers(ActorRef<WorkPullingProducerController.Command<String>> wpc, int n) {
    awaitWorkers(system, wpc, n);
  }

  /** Asks the controller for its stats until it has {@code n} workers (bounded). */
  static void awaitWorkers(ActorSystem<?> system, ActorRef<? super GetWorkerStats<String>> wpc, int n) {
    Probe<WorkerStats> stats = new Probe<>(system);
    long deadline = System.nanoTime() + Probe.WAIT.toNanos();
    while (true) {
      wpc.tell(new GetWorkerStats<>(stats.ref()));
      int now = stats.expectClass(WorkerStats.class).numberOfWorkers();
      if (now == n) {
        return;
      }
      if (System.nanoTime() > deadline) {
        fail("the controller has " + now + " workers after " + Probe.WAIT + ", expected " + n);
      }
      stats.expectNothing(Duration.ofMillis(20));
    }
  }

  /** Reads {@code count} "{worker}:{message}" notes, failing on a message seen twice. */
  private static Map<String, Set<String>> processed(Probe<Object> out, int count) {
    Map<String, Set<String>> byWorker = new HashMap<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < count; i++) {
      String[] note = ((String) out.receive()).split(":");
      assertTrue(seen.add(note[1]), "processed twice: " + note[1]);
      byWorker.computeIfAbsent(note[0], w -> new TreeSet<>()).add(note[1]);
    }
    return byWorker;
  }

  @Test
  void theWorkIsSpreadOverTheWorkersAndEveryMessageProcessedOnce() {
    Probe<Object> out = new Probe<>(system);
    ActorRef<WorkPullingProducerController.Command<String>> wpc = controller();
    for (String name : new String[] {"w1", "w2", "w3"}) {
      worker(spawn(confirming(name, out.ref())), 10);
    }
    awaitWorkers(wpc, 3);
    wpc.tell(new WorkPullingProducerController.Start<>(spawn(producer(300, null))));
    Map<String, Set<String>> byWorker = processed(out, 300);
    assertEquals(Set.of("w1", "w2", "w3"), byWorker.keySet(), "the workers that got work");
    out.expectNothing(QUIET);
  }

  @Test
  void theProducerIsAskedOnlyWithinTheWorkersDemand() {
    Probe<RequestNext<String>> producer = new Probe<>(system);
    Probe<Delivery<String>> consumer = new Probe<>(system);
    ActorRef<WorkPullingProducerController.Command<String>> wpc = controller();
    worker(consumer.ref(), 4);
    awaitWorkers(wpc, 1);
    wpc.tell(new WorkPullingProducerController.Start<>(producer.ref()));
    for (int i = 1; i <= 4; i++) {
      @SuppressWarnings("unchecked")
      RequestNext<String> req = producer.expectClass(RequestNext.class);
      req.sendNextTo().tell("m" + i);
    }
    producer.expectNothing(QUIET); // the worker's window (4) is used up, nothing confirmed
    Delivery<?> d = consumer.expectClass(Delivery.class);
    assertEquals("m1", d.message());
    consumer.expectNothing(QUIET); // one delivery at a time
    d.confirmTo().tell(ConsumerController.confirmed());
    d = consumer.expectClass(Delivery.class);
    assertEquals("m2", d.message());
    d.confirmTo().tell(ConsumerController.confirmed()); // 2 of 4 confirmed: the worker asks for more
    producer.expectClass(RequestNext.class);
  }

  @Test
  void aSlowWorkerHoldsNoMoreThanItsWindowWhileAFastOneTakesTheRest() {
    Probe<Object> out = new Probe<>(system);
    Probe<Delivery<String>> slow = new Probe<>(system);
    ActorRef<WorkPullingProducerController.Command<String>> wpc = controller();
    worker(slow.ref(), 4);
    worker(spawn(confirming("fast", out.ref())), 10);
    awaitWorkers(wpc, 2);
    wpc.tell(new WorkPullingProducerController.Start<>(spawn(producer(200, null))));
    Delivery<?> first = slow.expectClass(Delivery.class); // not confirmed: the slow worker's window fills
    Set<String> seen = new HashSet<>();
    while (seen.size() < 200 - 4) { // the fast worker takes all but the at most 4 the slow one holds
      String m = ((String) out.receive()).split(":")[1];
      assertTrue(seen.add(m), "processed twice: " + m);
    }
    // every message is out now: the slow worker works off what it holds, the fast one the rest
    int held = 0;
    Object next = first;
    long deadline = System.nanoTime() + Probe.WAIT.toNanos();
    while (seen.size() < 200) {
      if (next instanceof Delivery<?> d) {
        held++;
        assertTrue(seen.add((String) d.message()), "processed twice: " + d.message());
        d.confirmTo().tell(ConsumerController.confirmed());
      }
      Object note = out.poll(Duration.ofMillis(10));
      if (note != null) {
        String m = ((String) note).split(":")[1];
        assertTrue(seen.add(m), "processed twice: " + m);
      }
      if (System.nanoTime() > deadline) {
        fail(seen.size() + " of 200 processed after " + Probe.WAIT + ", the slow worker " + held);
      }
      next = slow.poll(Duration.ofMillis(10));
    }
    assertTrue(held <= 4, "the slow worker held " + held + " messages, its window is 4");
    slow.expectNothing(QUIET);
    out.expectNothing(Duration.ZERO);
    assertEquals(200, seen.size(), "every message processed");
  }

  @Test
  void aStoppedWorkersUnconfirmedMessagesGoToAWorkerThatJoinsLater() {
    Probe<Delivery<String>> first = new Probe<>(system);
    Probe<Done> confirmations = new Probe<>(system);
    Probe<Object> out = new Probe<>(system);
    Probe<Object> watcher = new Probe<>(system);
    ActorRef<WorkPullingProducerController.Command<String>> wpc = controller();
    ActorRef<Delivery<String>> firstConsumer = spawn(Behaviors.<Delivery<String>>receiveMessage(d -> {
      first.ref().tell(d); // never confirmed
      return Behaviors.same();
    }));
    ActorRef<ConsumerController.Command<String>> cc1 = worker(firstConsumer, 5);
    awaitWorkers(wpc, 1);
    wpc.tell(new WorkPullingProducerController.Start<>(spawn(producer(10, confirmations.ref()))));
    assertEquals("m1", first.expectClass(Delivery.class).message());
    confirmations.expectNothing(QUIET); // m1 to m5 sent to the first worker, none confirmed
    watcher.watch(cc1);
    stopActor(firstConsumer); // its consumer controller stops with it
    watcher.expectTerminated(cc1);
    awaitWorkers(wpc, 0);
    worker(spawn(confirming("second", out.ref())), 5);
    Map<String, Set<String>> byWorker = processed(out, 10);
    Set<String> all = new TreeSet<>();
    for (int i = 1; i <= 10; i++) {
      all.add("m" + i);
      confirmations.expect(Done.getInstance());
    }
    assertEquals(Map.of("second", all), byWorker, "the second worker processes the first one's five and the rest");
    out.expectNothing(QUIET);
    confirmations.expectNothing(Duration.ZERO);
    first.expectNothing(Duration.ZERO);
  }

  @Test
  void aMessageWithConfirmationIsAnsweredOnceTheWorkerConfirmedIt() {
    Probe<RequestNext<String>> producer = new Probe<>(system);
    Probe<Delivery<String>> consumer = new Probe<>(system);
    Probe<Done> replies = new Probe<>(system);
    ActorRef<WorkPullingProducerController.Command<String>> wpc = controller();
    worker(consumer.ref(), 10);
    awaitWorkers(wpc, 1);
    wpc.tell(new WorkPullingProducerController.Start<>(producer.ref()));
    for (int i = 1; i <= 2; i++) {
      @SuppressWarnings("unchecked")
      RequestNext<String> req = producer.expectClass(RequestNext.class);
      req.askNextTo().tell(new MessageWithConfirmation<>("m" + i, replies.ref()));
      Delivery<?> d = consumer.expectClass(Delivery.class);
      assertEquals("m" + i, d.message());
      replies.expectNothing(Duration.ofMillis(100)); // not before the worker confirms
      d.confirmTo().tell(ConsumerController.confirmed());
      replies.expect(Done.getInstance());
    }
  }

  @Test
  void theStatsCountTheWorkersAsTheyComeAndGo() {
    ActorRef<WorkPullingProducerController.Command<String>> wpc = controller();
    awaitWorkers(wpc, 0);
    ActorRef<Delivery<String>> c1 = spawn(Behaviors.ignore());
    ActorRef<ConsumerController.Command<String>> cc1 = worker(c1, 10);
    worker(spawn(Behaviors.ignore()), 10);
    awaitWorkers(wpc, 2);
    system.receptionist().tell(Receptionist.deregister(key, cc1)); // leaves the listing, still running
    awaitWorkers(wpc, 1);
    worker(spawn(Behaviors.ignore()), 10);
    awaitWorkers(wpc, 2);
  }

  @Test
  void messagesSentWithoutDemandWaitUpToTheBufferSize() {
    Probe<Done> replies = new Probe<>(system);
    Probe<Object> out = new Probe<>(system);
    WorkPullingProducerController.Settings settings = WorkPullingProducerController.Settings.create(system).withBufferSize(3);
    ActorRef<WorkPullingProducerController.Command<String>> wpc =
        spawn(WorkPullingProducerController.create(String.class, "work", key, Optional.empty(), settings));
    for (int i = 1; i <= 5; i++) { // no worker: no demand; the fourth and fifth are dropped
      wpc.tell(new MessageWithConfirmation<>("m" + i, replies.ref()));
    }
    awaitWorkers(wpc, 0);
    worker(spawn(confirming("w", out.ref())), 10);
    Map<String, Set<String>> byWorker = processed(out, 3);
    assertEquals(Map.of("w", Set.of("m1", "m2", "m3")), byWorker, "the buffered messages");
    for (int i = 1; i <= 3; i++) {
      replies.expect(Done.getInstance());
    }
    out.expectNothing(QUIET);
    replies.expectNothing(Duration.ZERO);
  }

  @Test
  void settingsComeFromTheConfigurationAndMalformedValuesNameTheirKey() {
    WorkPullingProducerController.Settings s = WorkPullingProducerController.Settings.create(system);
    assertEquals(1000, s.bufferSize());
    assertEquals(Duration.ofSeconds(1), s.producerControllerSettings().resendFirstInterval());
    assertEquals(7, s.withBufferSize(7).bufferSize());
    assertEquals(1000, s.bufferSize(), "a copy leaves the original as it is");
    assertEquals(Duration.ofMillis(5), s.withProducerControllerSettings(
        ProducerController.Settings.create(system).withResendFirstInterval(Duration.ofMillis(5)))
        .producerControllerSettings().resendFirstInterval());
    assertThrows(IllegalArgumentException.class, () -> s.withBufferSize(0));

    assertKeyNamed("buffer-size = lots", "buffer-size");
    assertKeyNamed("buffer-size = 0", "buffer-size");
    assertKeyNamed("resend-first-interval = never", "resend-first-interval");
    Config own = ConfigFactory.parseString("resend-first-interval = 3s")
        .withFallback(system.settings().config().getConfig(WorkPullingProducerController.CONFIG_PATH));
    assertEquals(Duration.ofSeconds(3), WorkPullingProducerController.Settings.create(own)
        .producerControllerSettings().resendFirstInterval(), "the workers' producer controllers' own key");

    assertThrows(IllegalArgumentException.class,
        () -> WorkPullingProducerController.create(String.class, "p", key, Optional.of(Behaviors.empty())));
    assertThrows(IllegalArgumentException.class,
        () -> WorkPullingProducerController.create(String.class, " ", key, Optional.empty()));
  }

  private void assertKeyNamed(String override, String k) {
    String path = WorkPullingProducerController.CONFIG_PATH;
    Config config = ConfigFactory.parseString(override).withFallback(system.settings().config().getConfig(path));
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> WorkPullingProducerController.Settings.create(config), override);
    assertTrue(e.getMessage().contains("'" + path + "." + k + "'"), e.getMessage());
  }
}
