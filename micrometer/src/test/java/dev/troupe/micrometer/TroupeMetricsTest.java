package dev.troupe.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The binder's meters: names and tags as documented, and values that follow what actors do. */
class TroupeMetricsTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Duration REFRESH = Duration.ofMillis(20);
  private static final String ON = """
      troupe.telemetry { enabled = on, sample-every = 1, jmx = off }
      work-dispatcher { type = Dispatcher, throughput = 5 }
      """;

  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(ON);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  /** A system with telemetry on, its binder bound to the registry, and a kit on it. */
  private TestKit bound() {
    ActorSystem s = troupe.system();
    new TroupeMetrics(s, REFRESH).bindTo(registry);
    return new TestKit(s);
  }

  /**
   * Waits until a refresh has registered the Counter class's meters (and, before them, its
   * dispatcher's): the one awaited is the last the binder registers for a class.
   */
  private void awaitCounterMeters(TestKit kit) {
    kit.awaitCond(WAIT, Duration.ofMillis(10), "the Counter class's meters",
        () -> registry.find("troupe.actor.processing.time.samples")
            .tags("actor.class", COUNTER).meter() != null);
  }

  /** Counts what it gets; answers "count"; fails on "boom"; leaves Integers below 0 unhandled. */
  static final class Counter extends AbstractActor {
    private int n;

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("boom", m -> {
            throw new IllegalStateException("boom (expected by the test)");
          })
          .matchEquals("count", m -> getSender().tell(n, getSelf()))
          .match(Integer.class, i -> i >= 0, i -> n++)
          .build();
    }
  }

  private static Props counter() {
    return Props.create(Counter.class, Counter::new).withDispatcher("work-dispatcher");
  }

  private static final String COUNTER = Counter.class.getName();

  private double counter(String name, String... tags) {
    FunctionCounter c = registry.find(name).tags(tags).functionCounter();
    assertNotNull(c, "no function counter " + name + " " + List.of(tags) + " in " + names());
    return c.count();
  }

  /** @return troupe.dead.letters summed over its reasons */
  private double deadLetters() {
    return registry.find("troupe.dead.letters").tags("system", troupe.system().name())
        .functionCounters().stream().mapToDouble(FunctionCounter::count).sum();
  }

  private Set<String> names() {
    return registry.getMeters().stream()
        .map(m -> m.getId().getName())
        .collect(Collectors.toCollection(java.util.TreeSet::new));
  }

  private static void await(TestKit kit, String what, DoubleSupplier actual, double expected) {
    kit.awaitCond(WAIT, Duration.ofMillis(10),
        what + " to be " + expected + " (last " + actual.getAsDouble() + ")",
        () -> actual.getAsDouble() == expected);
  }

  @Test
  void dispatcherAndActorClassCountersAreExactForAKnownWorkload() {
    TestKit kit = bound();
    ActorSystem s = troupe.system();
    ActorRef c = s.actorOf(counter(), "c");
    for (int i = 0; i < 1000; i++) {
      c.tell(i, ActorRef.noSender());
    }
    kit.send(c, "count");
    kit.expectMsg(WAIT, 1000);

    awaitCounterMeters(kit);
    await(kit, "troupe.actor.messages of Counter",
        () -> counter("troupe.actor.messages", "actor.class", COUNTER), 1001);
    await(kit, "troupe.dispatcher.messages of work-dispatcher",
        () -> counter("troupe.dispatcher.messages", "dispatcher", "work-dispatcher",
            "system", s.name()),
        1001);
    assertTrue(counter("troupe.dispatcher.mailbox.runs", "dispatcher", "work-dispatcher") >= 1001 / 5.0,
        "at most throughput = 5 messages per run");
    assertEquals(1, counter("troupe.actor.started", "actor.class", COUNTER), "Counters created");
    assertEquals(0, counter("troupe.actor.stopped", "actor.class", COUNTER), "Counters stopped");
    Gauge live = registry.find("troupe.actor.live").tags("actor.class", COUNTER).gauge();
    assertNotNull(live, "troupe.actor.live of Counter");
    assertEquals(1, live.value(), "live Counters");

    // sample-every = 1: every message is timed, so the histograms have samples and percentiles
    assertTrue(counter("troupe.actor.processing.time.samples", "actor.class", COUNTER) >= 1001,
        "processing-time samples of Counter");
    for (String q : List.of("0.5", "0.9", "0.99")) {
      TimeGauge g = registry.find("troupe.dispatcher.processing.time.percentile")
          .tags("dispatcher", "work-dispatcher", "phi", q).timeGauge();
      assertNotNull(g, "troupe.dispatcher.processing.time.percentile phi " + q);
      assertTrue(g.value(TimeUnit.NANOSECONDS) >= 0, "a percentile in nanoseconds");
    }
    TimeGauge max = registry.find("troupe.dispatcher.scheduling.delay.max")
        .tags("dispatcher", "work-dispatcher").timeGauge();
    assertNotNull(max, "troupe.dispatcher.scheduling.delay.max");
    assertTrue(counter("troupe.dispatcher.scheduling.delay.samples", "dispatcher", "work-dispatcher") > 0,
        "scheduling-delay samples (every run is sampled)");
  }

  @Test
  void failuresRestartsStopsDeadLettersAndUnhandledMessagesMoveTheirMeters() {
    TestKit kit = bound();
    ActorRef c = troupe.system().actorOf(counter(), "c");
    kit.send(c, "count");
    kit.expectMsg(WAIT, 0);
    awaitCounterMeters(kit);
    double deadBefore = deadLetters();

    c.tell("boom", ActorRef.noSender()); // the default strategy restarts it
    c.tell(-1, ActorRef.noSender()); // not matched: unhandled
    kit.send(c, "count");
    kit.expectMsg(WAIT, 0); // a restart starts a fresh instance
    await(kit, "troupe.actor.failures of Counter",
        () -> counter("troupe.actor.failures", "actor.class", COUNTER), 1);
    await(kit, "troupe.actor.restarts of Counter",
        () -> counter("troupe.actor.restarts", "actor.class", COUNTER), 1);
    await(kit, "troupe.unhandled.messages", () -> counter("troupe.unhandled.messages"), 1);

    kit.watch(c);
    c.tell(PoisonPill.getInstance(), ActorRef.noSender());
    kit.expectTerminated(c);
    c.tell(1, ActorRef.noSender());
    c.tell(2, ActorRef.noSender());
    await(kit, "troupe.dead.letters (all reasons)", this::deadLetters, deadBefore + 2);
    assertEquals(2, counter("troupe.dead.letters", "reason", "recipient-stopped"),
        "dead letters because the recipient had stopped");
    await(kit, "troupe.actor.stopped of Counter",
        () -> counter("troupe.actor.stopped", "actor.class", COUNTER), 1);
    await(kit, "troupe.actor.live of Counter",
        () -> registry.find("troupe.actor.live").tags("actor.class", COUNTER).gauge().value(), 0);
    assertEquals(1, counter("troupe.actor.started", "actor.class", COUNTER),
        "a restart is no new actor");
  }

  @Test
  void everyMeterIsNamedTroupeDotAndTaggedWithTheSystem() {
    TestKit kit = bound();
    kit.send(troupe.system().actorOf(counter()), "count");
    kit.expectMsg(WAIT, 0);
    awaitCounterMeters(kit);
    for (Meter m : registry.getMeters()) {
      assertTrue(m.getId().getName().startsWith("troupe."), "meter name " + m.getId());
      assertEquals(troupe.system().name(), m.getId().getTag("system"), "system tag of " + m.getId());
    }
    assertEquals(
        Set.of(
            "troupe.dead.letters",
            "troupe.unhandled.messages",
            "troupe.dispatcher.messages",
            "troupe.dispatcher.mailbox.runs",
            "troupe.dispatcher.scheduling.delay.percentile",
            "troupe.dispatcher.scheduling.delay.max",
            "troupe.dispatcher.scheduling.delay.samples",
            "troupe.dispatcher.processing.time.percentile",
            "troupe.dispatcher.processing.time.max",
            "troupe.dispatcher.processing.time.samples",
            "troupe.actor.messages",
            "troupe.actor.restarts",
            "troupe.actor.started",
            "troupe.actor.stopped",
            "troupe.actor.failures",
            "troupe.actor.live",
            "troupe.actor.processing.time.percentile",
            "troupe.actor.processing.time.max",
            "troupe.actor.processing.time.samples"),
        names(),
        "the meters of a local system (docs/observability.md lists each)");
  }

  @Test
  void theMetersAreRemovedWhenTheSystemTerminates() throws Exception {
    TestKit kit = bound();
    ActorSystem s = troupe.system();
    kit.send(s.actorOf(counter()), "count");
    kit.expectMsg(WAIT, 0);
    awaitCounterMeters(kit);

    s.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(List.of(), registry.getMeters(), "meters left after the system terminated");
  }

  @Test
  void withoutTelemetryOnlyTheSystemWideMetersArePublished() {
    ActorSystem s = troupe.createSystem("troupe.telemetry.enabled = off");
    new TroupeMetrics(s, REFRESH).bindTo(registry);
    TestKit kit = new TestKit(s);
    ActorRef c = s.actorOf(Props.create(Counter.class, Counter::new));
    c.tell(-1, ActorRef.noSender());
    await(kit, "troupe.unhandled.messages", () -> counter("troupe.unhandled.messages"), 1);
    assertEquals(Set.of("troupe.dead.letters", "troupe.unhandled.messages"), names(),
        "meters of a system without telemetry");
    assertNull(registry.find("troupe.dispatcher.messages").meter(), "no dispatcher meters");
  }

  @Test
  void aRefreshIntervalThatIsNotPositiveIsRefused() {
    ActorSystem s = troupe.system();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new TroupeMetrics(s, Duration.ZERO));
    assertTrue(e.getMessage().contains("refresh"), e.getMessage());
  }
}
