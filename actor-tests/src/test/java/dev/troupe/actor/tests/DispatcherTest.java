package dev.troupe.actor.tests;

import static dev.troupe.actor.tests.RuntimeFixtures.TIMEOUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Dispatcher settings: throughput, throughput deadline, ids, config errors, thread names. */
class DispatcherTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** Holds the dispatcher's only thread until released. */
  static final class Gate extends UntypedActor {
    private final CountDownLatch entered;
    private final CountDownLatch release;

    Gate(CountDownLatch entered, CountDownLatch release) {
      this.entered = entered;
      this.release = release;
    }

    @Override
    public void onReceive(Object message) throws Exception {
      entered.countDown();
      assertTrue(release.await(10, TimeUnit.SECONDS), "gate never released");
    }
  }

  /** Appends "<tag><n>" to a shared log; optionally works for a while per message. */
  static final class Recorder extends UntypedActor {
    private final String tag;
    private final List<String> log;
    private final Long workMillis;

    Recorder(String tag, List<String> log, Long workMillis) {
      this.tag = tag;
      this.log = log;
      this.workMillis = workMillis;
    }

    @Override
    public void onReceive(Object message) throws Exception {
      if (workMillis > 0) {
        Thread.sleep(workMillis); // simulated work: elapsed time is what the deadline measures
      }
      log.add(tag + message);
    }
  }

  private List<String> runTwoActorsOnOneThread(
      TestKit kit, String executor, int throughput, String deadline, long workMillis, int perActor) {
    ActorSystem sys = troupe.createSystem(
        "single {\n executor = " + executor + "\n throughput = " + throughput + "\n throughput-deadline-time = " + deadline
            + "\n affinity-pool-executor { parallelism-min = 1, parallelism-max = 1 }"
            + "\n fork-join-executor { parallelism-min = 1, parallelism-max = 1 } }");
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ActorRef gate = sys.actorOf(Props.create(Gate.class, entered, release).withDispatcher("single"));
    ActorRef a = sys.actorOf(Props.create(Recorder.class, "a", log, workMillis).withDispatcher("single"));
    ActorRef b = sys.actorOf(Props.create(Recorder.class, "b", log, workMillis).withDispatcher("single"));
    gate.tell("hold", ActorRef.noSender());
    kit.awaitCond("the gate to occupy the only thread", () -> entered.getCount() == 0);
    for (int i = 1; i <= perActor; i++) {
      a.tell(i, ActorRef.noSender());
    }
    for (int i = 1; i <= perActor; i++) {
      b.tell(i, ActorRef.noSender());
    }
    release.countDown();
    kit.awaitCond("all messages to be processed, got " + log, () -> log.size() == 2 * perActor);
    synchronized (log) {
      return new ArrayList<>(log);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"affinity-pool-executor", "fork-join-executor"})
  void anActorWithThroughputOneGivesTheThreadBackAfterEachMessage(String executor, TestKit kit) {
    List<String> log = runTwoActorsOnOneThread(kit, executor, 1, "0ms", 0, 5);
    assertEquals(List.of("a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5", "b5"), log);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"affinity-pool-executor", "fork-join-executor"})
  void anActorWithAHighThroughputProcessesItsBatchBeforeGivingTheThreadBack(String executor, TestKit kit) {
    List<String> log = runTwoActorsOnOneThread(kit, executor, 100, "0ms", 0, 5);
    assertEquals(List.of("a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5"), log);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"affinity-pool-executor", "fork-join-executor"})
  void theThroughputDeadlineEndsABatchEarly(String executor, TestKit kit) {
    // throughput would allow all 6; 20 ms of work each and a 30 ms deadline end a batch after 2
    List<String> log = runTwoActorsOnOneThread(kit, executor, 100, "30ms", 20, 6);
    assertTrue(log.indexOf("b1") < log.indexOf("a6"),
        "b ran only after a's whole queue despite the deadline: " + log);
    assertTrue(log.indexOf("b1") >= 1, "a ran no message before b: " + log);
  }

  static final class ThreadName extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      getSender().tell(Thread.currentThread().getName(), getSelf());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"affinity-pool-executor", "fork-join-executor", "thread-pool-executor"})
  void workerThreadsAreNamedAfterTheSystemAndTheDispatcher(String executor, TestKit kit) {
    ActorSystem sys = troupe.createSystem("my-dispatcher { executor = " + executor + " }");
    ActorRef d = sys.actorOf(Props.create(ThreadName.class));
    ActorRef m = sys.actorOf(Props.create(ThreadName.class).withDispatcher("my-dispatcher"));
    String dn = (String) kit.awaitResult(Patterns.ask(d, "?", TIMEOUT));
    String mn = (String) kit.awaitResult(Patterns.ask(m, "?", TIMEOUT));
    assertTrue(dn.matches(java.util.regex.Pattern.quote(sys.name() + "-troupe.actor.default-dispatcher-") + "\\d+"), dn);
    assertTrue(mn.matches(java.util.regex.Pattern.quote(sys.name() + "-my-dispatcher-") + "\\d+"), mn);
  }

  @Test
  void aDispatcherUnderTroupeActorCanBeNamedByItsShortId(TestKit kit) {
    ActorSystem sys = troupe.createSystem("troupe.actor.short-dispatcher { throughput = 3 }");
    ActorRef m = sys.actorOf(Props.create(ThreadName.class).withDispatcher("short-dispatcher"));
    String name = (String) kit.awaitResult(Patterns.ask(m, "?", TIMEOUT));
    assertTrue(name.startsWith(sys.name() + "-short-dispatcher-"), name);
  }

  @Test
  void anUnknownDispatcherIdIsAConfigurationExceptionNamingTheIdAtActorOf(ActorSystem sys) {
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(Props.create(ThreadName.class).withDispatcher("no-such-dispatcher"), "x"));
    assertTrue(e.getMessage().contains("no-such-dispatcher"), e.getMessage());
    // the name was not taken by the failed attempt
    sys.actorOf(Props.create(ThreadName.class), "x");
    assertThrows(ConfigurationException.class, () -> sys.dispatcher("no-such-dispatcher"));
  }

  @Test
  void aNonNumericThroughputIsAConfigurationExceptionNamingTheFullKey() {
    ActorSystem sys = troupe.createSystem("bad-dispatcher { throughput = abc }");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(Props.create(ThreadName.class).withDispatcher("bad-dispatcher")));
    assertTrue(e.getMessage().contains("bad-dispatcher.throughput"), e.getMessage());
  }

  @Test
  void aNegativeThroughputIsAConfigurationExceptionNamingTheFullKey() {
    ActorSystem sys = troupe.createSystem("bad-dispatcher { throughput = -1 }");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(Props.create(ThreadName.class).withDispatcher("bad-dispatcher")));
    assertTrue(e.getMessage().contains("bad-dispatcher.throughput"), e.getMessage());
  }

  @Test
  void aMalformedDefaultDispatcherFailsSystemCreationNamingTheFullKey(TestKit kit) {
    String name = RuntimeFixtures.uniqueName("baddefault");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> TestKit.shutdownActorSystem(ActorSystem.create(name, // shut down again should it start
            ConfigFactory.parseString("troupe.actor.default-dispatcher.throughput-deadline-time = soon"))));
    assertTrue(e.getMessage().contains("troupe.actor.default-dispatcher.throughput-deadline-time"), e.getMessage());
    kit.awaitCond("a system that failed to start left threads: " + TestKit.liveThreads(name + "-"),
        () -> TestKit.liveThreads(name + "-").isEmpty());
  }

  @Test
  void anUnknownExecutorIsAConfigurationExceptionNamingTheKey() {
    ActorSystem sys = troupe.createSystem("odd-dispatcher { executor = warp-drive }");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(Props.create(ThreadName.class).withDispatcher("odd-dispatcher")));
    assertTrue(e.getMessage().contains("odd-dispatcher.executor"), e.getMessage());
  }
}
