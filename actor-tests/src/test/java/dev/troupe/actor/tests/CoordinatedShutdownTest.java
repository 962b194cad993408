package dev.troupe.actor.tests;

import static dev.troupe.actor.CoordinatedShutdown.PHASE_ACTOR_SYSTEM_TERMINATE;
import static dev.troupe.actor.CoordinatedShutdown.PHASE_BEFORE_ACTOR_SYSTEM_TERMINATE;
import static dev.troupe.actor.CoordinatedShutdown.PHASE_BEFORE_SERVICE_UNBIND;
import static dev.troupe.actor.CoordinatedShutdown.PHASE_SERVICE_REQUESTS_DONE;
import static dev.troupe.actor.CoordinatedShutdown.PHASE_SERVICE_STOP;
import static dev.troupe.actor.CoordinatedShutdown.PHASE_SERVICE_UNBIND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Cancellable;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.CoordinatedShutdown;
import dev.troupe.actor.Done;
import dev.troupe.actor.Props;
import dev.troupe.actor.internal.shutdown.JvmShutdownHook;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * CoordinatedShutdown: phases in order, tasks of a phase concurrently, timeouts and failures that
 * are logged and passed, {@code recover = off}, one run however often it is asked for, {@code
 * terminate()} running it, tasks added too late refused, bad configuration refused at start, and
 * systems leaving the JVM hook when they terminate.
 */
class CoordinatedShutdownTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  private static final long WAIT_S = RuntimeFixtures.TIMEOUT.toSeconds();
  private static final Supplier<CompletionStage<Done>> NOTHING =
      () -> CompletableFuture.completedFuture(Done.getInstance());

  // this module's tests have troupe-cluster on the class path: its reference.conf adds the cluster's
  // three phases after service-requests-done (they run before service-stop, in name order)
  private static final List<String> BUILT_IN =
      List.of(
          PHASE_BEFORE_SERVICE_UNBIND,
          PHASE_SERVICE_UNBIND,
          PHASE_SERVICE_REQUESTS_DONE,
          "cluster-sharding-shutdown-region",
          "cluster-leave",
          "cluster-exiting",
          PHASE_SERVICE_STOP,
          PHASE_BEFORE_ACTOR_SYSTEM_TERMINATE,
          PHASE_ACTOR_SYSTEM_TERMINATE);

  private final List<String> events = Collections.synchronizedList(new ArrayList<>());
  private RuntimeFixtures.LogCapture capture;

  @BeforeEach
  void capture() {
    capture = new RuntimeFixtures.LogCapture(LoggerFactory.getLogger(CoordinatedShutdown.class));
  }

  @AfterEach
  void release() {
    capture.detach();
  }

  private List<String> logLines() {
    return capture.snapshot().stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
  }

  /** A task that records its phase and completes at once. */
  private Supplier<CompletionStage<Done>> record(String what) {
    return () -> {
      events.add(what);
      return CompletableFuture.completedFuture(Done.getInstance());
    };
  }

  private static <T> T await(CompletionStage<T> stage, String what) throws Exception {
    try {
      return stage.toCompletableFuture().get(WAIT_S, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError(what + " did not complete within " + WAIT_S + " s", e);
    }
  }

  @Test
  void phasesRunInOrderAndTheTasksOfOnePhaseRunConcurrently() throws Exception {
    ActorSystem system = troupe.system();
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    assertSame(cs, CoordinatedShutdown.get(system), "one per system");
    assertEquals(BUILT_IN, cs.phases());
    // added in reverse: the order of the run is the phases', not the additions'
    cs.addTask(PHASE_ACTOR_SYSTEM_TERMINATE, "t6", record("6"));
    cs.addTask(PHASE_BEFORE_ACTOR_SYSTEM_TERMINATE, "t5", record("5"));
    cs.addTask(PHASE_SERVICE_STOP, "t4", record("4"));
    // two tasks of one phase, each done only once the other has started: they overlap
    CompletableFuture<Done> aStarted = new CompletableFuture<>();
    CompletableFuture<Done> bStarted = new CompletableFuture<>();
    cs.addTask(PHASE_SERVICE_REQUESTS_DONE, "a", () -> {
      events.add("3a");
      aStarted.complete(Done.getInstance());
      return bStarted.thenApply(d -> { events.add("3a-end"); return d; });
    });
    cs.addTask(PHASE_SERVICE_REQUESTS_DONE, "b", () -> {
      events.add("3b");
      bStarted.complete(Done.getInstance());
      return aStarted.thenApplyAsync(d -> { events.add("3b-end"); return d; });
    });
    cs.addTask(PHASE_SERVICE_UNBIND, "t2", record("2"));
    cs.addTask(PHASE_BEFORE_SERVICE_UNBIND, "t1", record("1"));

    assertEquals(Done.getInstance(), await(cs.runAll(CoordinatedShutdown.unknownReason()), "runAll"));

    List<String> seen = List.copyOf(events);
    assertEquals(List.of("1", "2"), seen.subList(0, 2), seen.toString());
    assertEquals(List.of("3a", "3b"), seen.subList(2, 4).stream().sorted().toList(), seen.toString());
    assertEquals(List.of("3a-end", "3b-end"), seen.subList(4, 6).stream().sorted().toList(), seen.toString());
    assertEquals(List.of("4", "5", "6"), seen.subList(6, 9), seen.toString());
    assertTrue(system.getWhenTerminated().toCompletableFuture().isDone(), "the last phase terminated the system");
    assertEquals(CoordinatedShutdown.unknownReason(), cs.getShutdownReason().orElseThrow());
  }

  @Test
  void aPhaseAddedInConfigurationRunsWhereItsDependsOnPutsIt() throws Exception {
    ActorSystem system =
        troupe.createSystem(
            "troupe.coordinated-shutdown.phases {\n"
                + "  drain-queues { depends-on = [service-stop], timeout = 2s }\n"
                + "  before-actor-system-terminate.depends-on = [drain-queues]\n"
                + "}");
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    List<String> expected = new ArrayList<>(BUILT_IN);
    expected.add(BUILT_IN.indexOf(PHASE_SERVICE_STOP) + 1, "drain-queues");
    assertEquals(expected, cs.phases());
    assertEquals(Duration.ofSeconds(2), cs.timeout("drain-queues"));
    assertEquals(Duration.ofSeconds(5), cs.timeout(PHASE_SERVICE_STOP), "default-phase-timeout");
    assertEquals(Duration.ofSeconds(10), cs.timeout(PHASE_ACTOR_SYSTEM_TERMINATE));
    // seven phases on the default timeout, cluster-sharding-shutdown-region's 15 s, drain-queues, terminate
    assertEquals(Duration.ofSeconds(7 * 5 + 15 + 2 + 10), cs.totalTimeout());
    cs.addTask(PHASE_BEFORE_ACTOR_SYSTEM_TERMINATE, "after", record("after"));
    cs.addTask("drain-queues", "drain", record("drain"));
    cs.addTask(PHASE_SERVICE_STOP, "before", record("before"));
    await(cs.runAll(CoordinatedShutdown.unknownReason()), "runAll");
    assertEquals(List.of("before", "drain", "after"), List.copyOf(events));
  }

  @Test
  void aPhaseThatTimesOutIsLoggedNamingPhaseAndTaskAndTheNextPhaseRuns() throws Exception {
    ActorSystem system = troupe.createSystem("troupe.coordinated-shutdown.phases.service-unbind.timeout = 200ms");
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    cs.addTask(PHASE_SERVICE_UNBIND, "never-done", CompletableFuture::new);
    cs.addTask(PHASE_SERVICE_UNBIND, "quick", record("quick"));
    cs.addTask(PHASE_SERVICE_STOP, "next", record("next"));

    await(cs.runAll(CoordinatedShutdown.unknownReason()), "runAll past a phase that timed out");

    assertEquals(List.of("quick", "next"), List.copyOf(events));
    List<String> lines = logLines();
    assertTrue(
        lines.stream().anyMatch(l -> l.startsWith("WARN") && l.contains("'service-unbind' timed out after 200 ms")
            && l.contains("[never-done]") && l.contains(system.name())),
        lines.toString());
  }

  @Test
  void aFailedTaskIsLoggedNamingPhaseAndTaskAndTheRunGoesOn() throws Exception {
    ActorSystem system = troupe.system();
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    cs.addTask(PHASE_SERVICE_REQUESTS_DONE, "throws", () -> { throw new IllegalStateException("boom"); });
    cs.addTask(PHASE_SERVICE_REQUESTS_DONE, "fails",
        () -> CompletableFuture.failedFuture(new IllegalArgumentException("bad")));
    cs.addTask(PHASE_SERVICE_REQUESTS_DONE, "null", () -> null);
    cs.addTask(PHASE_SERVICE_STOP, "next", record("next"));

    await(cs.runAll(CoordinatedShutdown.unknownReason()), "runAll past failed tasks");

    assertEquals(List.of("next"), List.copyOf(events));
    List<String> lines = logLines();
    for (String task : List.of("throws", "fails", "null")) {
      assertTrue(
          lines.stream().anyMatch(l -> l.startsWith("WARN") && l.contains("task '" + task + "' of phase 'service-requests-done' failed")),
          task + " in " + lines);
    }
  }

  @Test
  void aFailedTaskOfAPhaseWithRecoverOffEndsTheRunAndTerminateStillStopsTheSystem() throws Exception {
    ActorSystem system = troupe.createSystem("troupe.coordinated-shutdown.phases.service-stop.recover = off");
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    cs.addTask(PHASE_SERVICE_STOP, "fails", () -> CompletableFuture.failedFuture(new IllegalStateException("no")));
    cs.addTask(PHASE_BEFORE_ACTOR_SYSTEM_TERMINATE, "later", record("later"));

    ExecutionException e =
        assertThrows(ExecutionException.class, () -> cs.runAll(CoordinatedShutdown.unknownReason())
            .toCompletableFuture().get(WAIT_S, TimeUnit.SECONDS));
    assertTrue(e.getCause().getMessage().contains("phase 'service-stop'"), e.getCause().getMessage());
    assertEquals(List.of(), List.copyOf(events), "later phases do not run");
    assertFalse(system.getWhenTerminated().toCompletableFuture().isDone(), "the run ended before terminating");

    await(system.terminate(), "terminate after a run that ended early");
  }

  @Test
  void runAllRunsOnceAndEveryCallReturnsTheSameStage() throws Exception {
    ActorSystem system = troupe.system();
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    AtomicInteger runs = new AtomicInteger();
    CompletableFuture<Done> release = new CompletableFuture<>();
    cs.addTask(PHASE_SERVICE_UNBIND, "counted", () -> {
      runs.incrementAndGet();
      return release;
    });
    record Custom(String why) implements CoordinatedShutdown.Reason {}

    CompletionStage<Done> first = cs.runAll(new Custom("deploy"));
    CompletionStage<Done> second = cs.runAll(CoordinatedShutdown.unknownReason());
    CompletionStage<?> third = system.terminate();
    assertSame(first, second);
    release.complete(Done.getInstance());
    await(first, "runAll");
    await(third, "terminate");
    assertSame(first, cs.runAll(CoordinatedShutdown.unknownReason()), "also after it finished");
    assertEquals(1, runs.get());
    assertEquals(new Custom("deploy"), cs.getShutdownReason().orElseThrow(), "the first reason is kept");
  }

  @Test
  void terminateRunsThePhasesWhileTheSystemStillServes() throws Exception {
    ActorSystem system = troupe.system();
    ActorRef echo = system.actorOf(Props.create(RuntimeFixtures.ContextActor.class), "echo");
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    cs.addTask(PHASE_SERVICE_STOP, "ask-an-actor", () ->
        Patterns.ask(echo, new RuntimeFixtures.InContext(c -> "alive"), RuntimeFixtures.TIMEOUT)
            .thenApply(reply -> {
              events.add("reply " + reply);
              return Done.getInstance();
            }));
    cs.addTask(PHASE_ACTOR_SYSTEM_TERMINATE, "last", record("last"));

    await(system.terminate(), "terminate");

    assertEquals(List.of("reply alive", "last"), List.copyOf(events));
    assertInstanceOf(CoordinatedShutdown.ActorSystemTerminateReason.class, cs.getShutdownReason().orElseThrow());
  }

  @Test
  void withTerminateActorSystemOffTheRunLeavesTheSystemRunningButTerminateStillStopsIt() throws Exception {
    ActorSystem system = troupe.createSystem("troupe.coordinated-shutdown.terminate-actor-system = off");
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    await(cs.runAll(CoordinatedShutdown.unknownReason()), "runAll");
    ActorRef a = system.actorOf(Props.create(RuntimeFixtures.ContextActor.class));
    assertEquals("up", await(Patterns.ask(a, new RuntimeFixtures.InContext(c -> "up"), RuntimeFixtures.TIMEOUT), "ask"));
    await(system.terminate(), "terminate");
  }

  @Test
  void aTaskAddedToAPhaseThatStartedIsRefusedAndOneForALaterPhaseRuns() throws Exception {
    ActorSystem system = troupe.system();
    CoordinatedShutdown cs = CoordinatedShutdown.get(system);
    CountDownLatch inPhase = new CountDownLatch(1);
    CompletableFuture<Done> release = new CompletableFuture<>();
    cs.addTask(PHASE_SERVICE_REQUESTS_DONE, "hold", () -> {
      inPhase.countDown();
      return release;
    });
    CompletionStage<Done> run = cs.runAll(CoordinatedShutdown.unknownReason());
    assertTrue(inPhase.await(WAIT_S, TimeUnit.SECONDS), "the phase started");

    IllegalStateException late =
        assertThrows(IllegalStateException.class, () -> cs.addTask(PHASE_SERVICE_UNBIND, "too-late", NOTHING));
    assertTrue(late.getMessage().contains("'service-unbind'") && late.getMessage().contains("'too-late'"), late.getMessage());
    assertThrows(IllegalStateException.class, () -> cs.addTask(PHASE_SERVICE_REQUESTS_DONE, "running", NOTHING));
    cs.addTask(PHASE_SERVICE_STOP, "in-time", record("in-time"));
    release.complete(Done.getInstance());

    await(run, "runAll");
    assertEquals(List.of("in-time"), List.copyOf(events));
  }

  @Test
  void aCancelledTaskDoesNotRun() throws Exception {
    CoordinatedShutdown cs = CoordinatedShutdown.get(troupe.system());
    Cancellable c = cs.addTask(PHASE_SERVICE_STOP, "cancelled", record("cancelled"));
    cs.addTask(PHASE_SERVICE_STOP, "kept", record("kept"));
    assertTrue(c.cancel());
    assertTrue(c.isCancelled());
    assertFalse(c.cancel(), "once");
    Cancellable ran = cs.addTask(PHASE_SERVICE_UNBIND, "ran", NOTHING);
    await(cs.runAll(CoordinatedShutdown.unknownReason()), "runAll");
    assertEquals(List.of("kept"), List.copyOf(events));
    assertFalse(ran.cancel(), "too late to cancel");
  }

  @Test
  void badArgumentsAreRefusedAtTheCall() {
    CoordinatedShutdown cs = CoordinatedShutdown.get(troupe.system());
    IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> cs.addTask("service-unbnd", "x", NOTHING));
    assertTrue(unknown.getMessage().contains("'service-unbnd'") && unknown.getMessage().contains(PHASE_SERVICE_UNBIND),
        unknown.getMessage());
    assertThrows(IllegalArgumentException.class, () -> cs.addTask(PHASE_SERVICE_UNBIND, " ", NOTHING));
    assertThrows(NullPointerException.class, () -> cs.addTask(PHASE_SERVICE_UNBIND, "x", null));
    assertThrows(NullPointerException.class, () -> cs.runAll(null));
    assertThrows(IllegalArgumentException.class, () -> cs.timeout("nope"));
  }

  @Test
  void badConfigurationFailsTheSystemsCreationNamingTheKey() {
    assertBadConfig("troupe.coordinated-shutdown.phases.service-stop.timeout = 5 parsecs",
        "troupe.coordinated-shutdown.phases.service-stop.timeout");
    assertBadConfig("troupe.coordinated-shutdown.default-phase-timeout = 0s",
        "troupe.coordinated-shutdown.default-phase-timeout");
    assertBadConfig("troupe.coordinated-shutdown.phases.service-stop.depends-on = [service-unbnd]", "service-unbnd");
    assertBadConfig("troupe.coordinated-shutdown.phases.service-stop.timout = 1s", "timout");
    assertBadConfig("troupe.coordinated-shutdown.phases.before-service-unbind.depends-on = [service-stop]", "cycle");
    assertBadConfig("troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = maybe",
        "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook");
  }

  private static void assertBadConfig(String hocon, String named) {
    ConfigurationException e =
        assertThrows(ConfigurationException.class,
            () -> ActorSystem.create(RuntimeFixtures.uniqueName("bad-shutdown"), ConfigFactory.parseString(hocon)),
            hocon);
    assertTrue(e.getMessage().contains(named), hocon + " -> " + e.getMessage());
  }

  @Test
  void systemsLeaveTheJvmShutdownHookWhenTheyTerminate() throws Exception {
    int before = JvmShutdownHook.registeredSystems();
    List<ActorSystem> systems = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      systems.add(ActorSystem.create(RuntimeFixtures.uniqueName("hook"), ConfigFactory.parseString(RuntimeFixtures.CONFIG)));
    }
    ActorSystem off =
        ActorSystem.create(RuntimeFixtures.uniqueName("no-hook"),
            ConfigFactory.parseString("troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off"));
    assertTrue(JvmShutdownHook.registeredSystems() >= before + 40, "registered while running");
    for (ActorSystem s : systems) {
      await(s.terminate(), "terminate " + s.name());
    }
    await(off.terminate(), "terminate " + off.name());
    assertEquals(before, JvmShutdownHook.registeredSystems(), "every terminated system left the hook");
  }

  /**
   * Many threads add tasks to every phase while the run starts: each addition either succeeds and
   * its task runs exactly once, or is refused because its phase had started; none is lost.
   */
  @Test
  void tasksAddedWhileTheRunStartsEitherRunOnceOrAreRefused() throws Exception {
    long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    int rounds = 0;
    while (rounds < 30 && (rounds < 3 || System.nanoTime() < end)) {
      rounds++;
      ActorSystem system =
          ActorSystem.create(RuntimeFixtures.uniqueName("race"), ConfigFactory.parseString(RuntimeFixtures.CONFIG));
      CoordinatedShutdown cs = CoordinatedShutdown.get(system);
      List<String> phases = cs.phases();
      int threads = 4;
      AtomicInteger added = new AtomicInteger();
      AtomicInteger ran = new AtomicInteger();
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> adders = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int seed = t;
        Thread th = new Thread(() -> {
          try {
            go.await();
          } catch (InterruptedException e) {
            return;
          }
          for (int i = 0; i < 200; i++) {
            String phase = phases.get((i + seed) % phases.size());
            try {
              cs.addTask(phase, "t" + seed + "-" + i, () -> {
                ran.incrementAndGet();
                return CompletableFuture.completedFuture(Done.getInstance());
              });
              added.incrementAndGet();
            } catch (IllegalStateException refused) {
              // its phase had started
            }
          }
        }, "shutdown-adder-" + t);
        th.start();
        adders.add(th);
      }
      go.countDown();
      CompletionStage<Done> run = cs.runAll(CoordinatedShutdown.unknownReason());
      for (Thread th : adders) {
        th.join(TimeUnit.SECONDS.toMillis(WAIT_S));
        assertFalse(th.isAlive(), th.getName() + " finished");
      }
      await(run, "runAll of round " + rounds);
      await(system.getWhenTerminated(), "termination of round " + rounds);
      assertEquals(added.get(), ran.get(), "round " + rounds + ": every added task ran once");
    }
  }
}
