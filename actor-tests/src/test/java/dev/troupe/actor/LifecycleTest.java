package dev.troupe.actor;

import static dev.troupe.actor.TestSupport.await;
import static dev.troupe.actor.TestSupport.awaitCond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.TestSupport.Probe;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** preStart/postStop, stop, PoisonPill, stop order, system termination. */
class LifecycleTest {
  private final TestSupport.Systems systems = new TestSupport.Systems();

  @AfterEach
  void tearDown() {
    systems.close();
  }

  /** Reports its lifecycle and messages to a probe ref; creates the named children it is given. */
  static final class Lifecycle extends UntypedActor {
    private final String name;
    private final ActorRef report;
    private final List<String> log;
    private final String[] children;

    Lifecycle(String name, ActorRef report, List<String> log, String[] children) {
      this.name = name;
      this.report = report;
      this.log = log;
      this.children = children;
    }

    @Override
    public void preStart() {
      log.add(name + ":preStart");
      for (String c : children) {
        getContext().actorOf(Props.create(Lifecycle.class, c, report, log, new String[0]), c);
      }
    }

    @Override
    public void onReceive(Object message) {
      log.add(name + ":" + message);
      report.tell(message, getSelf());
    }

    @Override
    public void postStop() {
      log.add(name + ":postStop");
      report.tell(name + " stopped", getSelf());
    }
  }

  private static Props lifecycle(String name, Probe p, List<String> log, String... children) {
    return Props.create(Lifecycle.class, name, p.ref(), log, children);
  }

  @Test
  void preStartRunsBeforeTheFirstMessageAndPostStopAfterStop() throws Exception {
    ActorSystem sys = systems.create("hooks");
    Probe p = new Probe(sys);
    List<String> log = new CopyOnWriteArrayList<>();
    ActorRef a = sys.actorOf(lifecycle("a", p, log), "a");
    a.tell("hello", ActorRef.noSender());
    p.expectMsg("hello");
    sys.stop(a);
    p.expectMsg("a stopped");
    assertEquals(List.of("a:preStart", "a:hello", "a:postStop"), log);
  }

  @Test
  void messagesBeforeAPoisonPillAreProcessedAndMessagesAfterItGoToDeadLetters() throws Exception {
    ActorSystem sys = systems.create("poison");
    Probe p = new Probe(sys);
    Probe dead = new Probe(sys);
    sys.eventStream().subscribe(dead.ref(), DeadLetter.class);
    List<String> log = new CopyOnWriteArrayList<>();
    ActorRef a = sys.actorOf(lifecycle("a", p, log), "a");
    for (int i = 1; i <= 3; i++) {
      a.tell("m" + i, ActorRef.noSender());
    }
    a.tell(PoisonPill.getInstance(), ActorRef.noSender());
    a.tell("m4", ActorRef.noSender());
    a.tell("m5", ActorRef.noSender());
    p.expectMsg("m1");
    p.expectMsg("m2");
    p.expectMsg("m3");
    p.expectMsg("a stopped");
    assertEquals("m4", dead.expectMsgClass(DeadLetter.class).message());
    DeadLetter d5 = dead.expectMsgClass(DeadLetter.class);
    assertEquals("m5", d5.message());
    assertEquals(a, d5.recipient());
    // and later sends too
    a.tell("m6", ActorRef.noSender());
    assertEquals("m6", dead.expectMsgClass(DeadLetter.class).message());
    p.expectNoMsg(Duration.ofMillis(50));
  }

  @Test
  void stoppingAParentStopsItsChildrenFirst() throws Exception {
    ActorSystem sys = systems.create("stoporder");
    Probe p = new Probe(sys);
    List<String> log = new CopyOnWriteArrayList<>();
    ActorRef parent = sys.actorOf(lifecycle("parent", p, log, "c1", "c2", "c3"), "parent");
    awaitCond(() -> log.size() == 4, "parent and children to start: " + log);
    sys.stop(parent);
    awaitCond(() -> log.contains("parent:postStop"), "the parent to stop: " + log);
    int parentStop = log.indexOf("parent:postStop");
    for (String c : List.of("c1", "c2", "c3")) {
      int i = log.indexOf(c + ":postStop");
      assertTrue(i >= 0 && i < parentStop, c + " did not stop before its parent: " + log);
    }
  }

  @Test
  void contextStopOfSelfStopsTheActor() throws Throwable {
    ActorSystem sys = systems.create("selfstop");
    ActorRef a = sys.actorOf(Props.create(TestSupport.ContextActor.class));
    Probe p = new Probe(sys);
    TestSupport.watch(sys, a, p);
    TestSupport.inContext(a, ctx -> {
      ctx.stop(ctx.getSelf());
      return "ok";
    });
    assertEquals(a, p.expectMsgClass(Terminated.class).actor());
  }

  @Test
  void terminateStopsEveryActorCompletesWhenTerminatedAndEndsAllThreads() throws Throwable {
    String name = TestSupport.uniqueName("terminate");
    ActorSystem sys = systems.track(ActorSystem.create(name, ConfigFactory.parseString(
        "other-dispatcher { executor = fork-join-executor }\npool-dispatcher { executor = thread-pool-executor }")));
    List<String> log = new CopyOnWriteArrayList<>();
    Probe p = new Probe(sys);
    sys.actorOf(lifecycle("a", p, log, "a1", "a2"), "a");
    sys.actorOf(lifecycle("b", p, log).withDispatcher("other-dispatcher"), "b");
    sys.actorOf(lifecycle("c", p, log).withDispatcher("pool-dispatcher"), "c");
    sys.scheduler().scheduleOnce(Duration.ofHours(1), () -> { }, sys.dispatcher());
    awaitCond(() -> log.size() == 5, "all actors to start: " + log);
    assertTrue(TestSupport.threadsNamed(name).size() > 0);
    Terminated t = await(sys.terminate(), TestSupport.TIMEOUT);
    assertTrue(t.existenceConfirmed());
    for (String a : List.of("a", "a1", "a2", "b", "c")) {
      assertTrue(log.contains(a + ":postStop"), a + " was not stopped: " + log);
    }
    assertTrue(log.indexOf("a1:postStop") < log.indexOf("a:postStop"), log.toString());
    awaitCond(() -> TestSupport.threadsNamed(name).isEmpty(), Duration.ofSeconds(10),
        "threads of the terminated system are still alive: " + TestSupport.threadsNamed(name));
    // terminate is idempotent, and a terminated system creates no actors
    await(sys.terminate(), TestSupport.TIMEOUT);
    assertThrows(IllegalStateException.class, () -> sys.actorOf(lifecycle("late", p, log)));
  }

  @Test
  void terminationHooksRunInReverseRegistrationOrderBeforeWhenTerminatedCompletes() throws Throwable {
    ActorSystem sys = systems.create("hooks");
    List<String> ran = new CopyOnWriteArrayList<>();
    sys.registerOnTermination(() -> ran.add("first"));
    sys.registerOnTermination(() -> ran.add("second"));
    await(sys.terminate(), TestSupport.TIMEOUT);
    assertEquals(List.of("second", "first"), ran);
  }

  @Test
  void gracefulStopCompletesAfterPostStopRan() throws Throwable {
    ActorSystem sys = systems.create("graceful");
    Probe p = new Probe(sys);
    List<String> log = new CopyOnWriteArrayList<>();
    ActorRef a = sys.actorOf(lifecycle("a", p, log), "a");
    assertTrue(await(Patterns.gracefulStop(a, Duration.ofSeconds(5))));
    assertTrue(log.contains("a:postStop"), log.toString());
  }
}
