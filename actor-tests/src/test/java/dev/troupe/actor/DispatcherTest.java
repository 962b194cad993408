package dev.troupe.actor;

import static dev.troupe.actor.TestSupport.await;
import static dev.troupe.actor.TestSupport.awaitCond;
import static dev.troupe.actor.TestSupport.awaitLatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.pattern.Patterns;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Dispatcher settings: throughput, throughput deadline, ids, config errors, thread names. */
class DispatcherTest {
  private final TestSupport.Systems systems = new TestSupport.Systems();

  @AfterEach
  void tearDown() {
    systems.close();
  }

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

  private List<String> runTwoActorsOnOneThread(String executor, int throughput, String deadline, long workMillis, int perActor)
      throws Exception {
    ActorSystem sys = systems.create("throughput",
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
    awaitLatch(entered, "the gate to occupy the only thread");
    for (int i = 1; i <= perActor; i++) {
      a.tell(i, ActorRef.noSender());
    }
    for (int i = 1; i <= perActor; i++) {
      b.tell(i, ActorRef.noSender());
    }
    release.countDown();
    awaitCond(() -> log.size() == 2 * perActor, "all messages to be processed, got " + log);
    synchronized (log) {
      return new ArrayList<>(log);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"affinity-pool-executor", "fork-join-executor"})
  void anActorWithThroughputOneGivesTheThreadBackAfterEachMessage(String executor) throws Exception {
    List<String> log = runTwoActorsOnOneThread(executor, 1, "0ms", 0, 5);
    assertEquals(List.of("a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5", "b5"), log);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"affinity-pool-executor", "fork-join-executor"})
  void anActorWithAHighThroughputProcessesItsBatchBeforeGivingTheThreadBack(String executor) throws Exception {
    List<String> log = runTwoActorsOnOneThread(executor, 100, "0ms", 0, 5);
    assertEquals(List.of("a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5"), log);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"affinity-pool-executor", "fork-join-executor"})
  void theThroughputDeadlineEndsABatchEarly(String executor) throws Exception {
    // throughput would allow all 6; 20 ms of work each and a 30 ms deadline end a batch after 2
    List<String> log = runTwoActorsOnOneThread(executor, 100, "30ms", 20, 6);
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
  void workerThreadsAreNamedAfterTheSystemAndTheDispatcher(String executor) throws Throwable {
    ActorSystem sys = systems.create("names", "my-dispatcher { executor = " + executor + " }");
    ActorRef d = sys.actorOf(Props.create(ThreadName.class));
    ActorRef m = sys.actorOf(Props.create(ThreadName.class).withDispatcher("my-dispatcher"));
    String dn = (String) await(Patterns.ask(d, "?", TestSupport.TIMEOUT));
    String mn = (String) await(Patterns.ask(m, "?", TestSupport.TIMEOUT));
    assertTrue(dn.matches(java.util.regex.Pattern.quote(sys.name() + "-troupe.actor.default-dispatcher-") + "\\d+"), dn);
    assertTrue(mn.matches(java.util.regex.Pattern.quote(sys.name() + "-my-dispatcher-") + "\\d+"), mn);
  }

  @Test
  void aDispatcherUnderTroupeActorCanBeNamedByItsShortId() throws Throwable {
    ActorSystem sys = systems.create("shortid", "troupe.actor.short-dispatcher { throughput = 3 }");
    ActorRef m = sys.actorOf(Props.create(ThreadName.class).withDispatcher("short-dispatcher"));
    String name = (String) await(Patterns.ask(m, "?", TestSupport.TIMEOUT));
    assertTrue(name.startsWith(sys.name() + "-short-dispatcher-"), name);
  }

  @Test
  void anUnknownDispatcherIdIsAConfigurationExceptionNamingTheIdAtActorOf() {
    ActorSystem sys = systems.create("nodispatcher");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(Props.create(ThreadName.class).withDispatcher("no-such-dispatcher"), "x"));
    assertTrue(e.getMessage().contains("no-such-dispatcher"), e.getMessage());
    // the name was not taken by the failed attempt
    sys.actorOf(Props.create(ThreadName.class), "x");
    assertThrows(ConfigurationException.class, () -> sys.dispatcher("no-such-dispatcher"));
  }

  @Test
  void aNonNumericThroughputIsAConfigurationExceptionNamingTheFullKey() {
    ActorSystem sys = systems.create("badthroughput", "bad-dispatcher { throughput = abc }");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(Props.create(ThreadName.class).withDispatcher("bad-dispatcher")));
    assertTrue(e.getMessage().contains("bad-dispatcher.throughput"), e.getMessage());
  }

  @Test
  void aNegativeThroughputIsAConfigurationExceptionNamingTheFullKey() {
    ActorSystem sys = systems.create("negthroughput", "bad-dispatcher { throughput = -1 }");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(Props.create(ThreadName.class).withDispatcher("bad-dispatcher")));
    assertTrue(e.getMessage().contains("bad-dispatcher.throughput"), e.getMessage());
  }

  @Test
  void aMalformedDefaultDispatcherFailsSystemCreationNamingTheFullKey() {
    String name = TestSupport.uniqueName("baddefault");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> systems.track(ActorSystem.create(name,
            ConfigFactory.parseString("troupe.actor.default-dispatcher.throughput-deadline-time = soon"))));
    assertTrue(e.getMessage().contains("troupe.actor.default-dispatcher.throughput-deadline-time"), e.getMessage());
    awaitCond(() -> TestSupport.threadsNamed(name).isEmpty(),
        "a system that failed to start left threads: " + TestSupport.threadsNamed(name));
  }

  @Test
  void anUnknownExecutorIsAConfigurationExceptionNamingTheKey() {
    ActorSystem sys = systems.create("badexecutor", "odd-dispatcher { executor = warp-drive }");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> sys.actorOf(Props.create(ThreadName.class).withDispatcher("odd-dispatcher")));
    assertTrue(e.getMessage().contains("odd-dispatcher.executor"), e.getMessage());
  }
}
