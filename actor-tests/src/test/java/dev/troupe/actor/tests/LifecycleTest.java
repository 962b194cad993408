package dev.troupe.actor.tests;

import static dev.troupe.actor.tests.RuntimeFixtures.inContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** preStart/postStop, stop, PoisonPill, stop order, system termination. */
class LifecycleTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

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

  private static Props lifecycle(String name, TestKit p, List<String> log, String... children) {
    return Props.create(Lifecycle.class, name, p.getRef(), log, children);
  }

  @Test
  void preStartRunsBeforeTheFirstMessageAndPostStopAfterStop(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    List<String> log = new CopyOnWriteArrayList<>();
    ActorRef a = sys.actorOf(lifecycle("a", p, log), "a");
    a.tell("hello", ActorRef.noSender());
    p.expectMsg("hello");
    sys.stop(a);
    p.expectMsg("a stopped");
    assertEquals(List.of("a:preStart", "a:hello", "a:postStop"), log);
  }

  @Test
  void messagesBeforeAPoisonPillAreProcessedAndMessagesAfterItGoToDeadLetters(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    TestProbe dead = new TestProbe(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
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
    p.expectNoMessage(Duration.ofMillis(50));
  }

  @Test
  void stoppingAParentStopsItsChildrenFirst(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    List<String> log = new CopyOnWriteArrayList<>();
    ActorRef parent = sys.actorOf(lifecycle("parent", p, log, "c1", "c2", "c3"), "parent");
    p.awaitCond("parent and children to start: " + log, () -> log.size() == 4);
    sys.stop(parent);
    p.awaitCond("the parent to stop: " + log, () -> log.contains("parent:postStop"));
    int parentStop = log.indexOf("parent:postStop");
    for (String c : List.of("c1", "c2", "c3")) {
      int i = log.indexOf(c + ":postStop");
      assertTrue(i >= 0 && i < parentStop, c + " did not stop before its parent: " + log);
    }
  }

  @Test
  void contextStopOfSelfStopsTheActor(ActorSystem sys, TestKit kit) {
    ActorRef a = sys.actorOf(Props.create(RuntimeFixtures.ContextActor.class));
    TestProbe p = new TestProbe(sys);
    p.watch(a);
    inContext(kit, a, ctx -> {
      ctx.stop(ctx.getSelf());
      return "ok";
    });
    assertEquals(a, p.expectMsgClass(Terminated.class).actor());
  }

  @Test
  void terminateStopsEveryActorCompletesWhenTerminatedAndEndsAllThreads(TestKit kit) {
    ActorSystem sys = troupe.createSystem(
        "other-dispatcher { executor = fork-join-executor }\npool-dispatcher { executor = thread-pool-executor }");
    String threads = sys.name() + "-";
    List<String> log = new CopyOnWriteArrayList<>();
    TestProbe p = new TestProbe(sys);
    sys.actorOf(lifecycle("a", p, log, "a1", "a2"), "a");
    sys.actorOf(lifecycle("b", p, log).withDispatcher("other-dispatcher"), "b");
    sys.actorOf(lifecycle("c", p, log).withDispatcher("pool-dispatcher"), "c");
    sys.scheduler().scheduleOnce(Duration.ofHours(1), () -> { }, sys.dispatcher());
    kit.awaitCond("all actors to start: " + log, () -> log.size() == 5);
    assertTrue(TestKit.liveThreads(threads).size() > 0);
    Terminated t = kit.awaitResult(sys.terminate());
    assertTrue(t.existenceConfirmed());
    for (String a : List.of("a", "a1", "a2", "b", "c")) {
      assertTrue(log.contains(a + ":postStop"), a + " was not stopped: " + log);
    }
    assertTrue(log.indexOf("a1:postStop") < log.indexOf("a:postStop"), log.toString());
    kit.awaitCond(Duration.ofSeconds(10), Duration.ofMillis(5),
        "threads of the terminated system are still alive: " + TestKit.liveThreads(threads),
        () -> TestKit.liveThreads(threads).isEmpty());
    // terminate is idempotent, and a terminated system creates no actors
    kit.awaitResult(sys.terminate());
    assertThrows(IllegalStateException.class, () -> sys.actorOf(lifecycle("late", p, log)));
  }

  @Test
  void terminationHooksRunInReverseRegistrationOrderBeforeWhenTerminatedCompletes(ActorSystem sys, TestKit kit) {
    List<String> ran = new CopyOnWriteArrayList<>();
    sys.registerOnTermination(() -> ran.add("first"));
    sys.registerOnTermination(() -> ran.add("second"));
    kit.awaitResult(sys.terminate());
    assertEquals(List.of("second", "first"), ran);
  }

  @Test
  void gracefulStopCompletesAfterPostStopRan(ActorSystem sys, TestKit kit) {
    TestProbe p = new TestProbe(sys);
    List<String> log = new CopyOnWriteArrayList<>();
    ActorRef a = sys.actorOf(lifecycle("a", p, log), "a");
    assertTrue(kit.awaitResult(Patterns.gracefulStop(a, Duration.ofSeconds(5))));
    assertTrue(log.contains("a:postStop"), log.toString());
  }
}
