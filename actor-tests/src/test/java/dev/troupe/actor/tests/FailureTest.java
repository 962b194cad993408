package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.ActorInitializationException;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.Kill;
import dev.troupe.actor.OneForOneStrategy;
import dev.troupe.actor.Props;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.UnhandledMessage;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Failures in actors: isolation, initialization failures, default supervision. */
class FailureTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** Counts every message it is handed; throws on every {@code failEvery}-th (0 = never). */
  static final class Flaky extends UntypedActor {
    private final AtomicInteger seen;
    private final Integer failEvery;

    Flaky(AtomicInteger seen, Integer failEvery) {
      this.seen = seen;
      this.failEvery = failEvery;
    }

    @Override
    public void onReceive(Object message) {
      int n = seen.incrementAndGet();
      if (failEvery > 0 && n % failEvery == 0) {
        throw new IllegalStateException("planned failure " + n);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"affinity-pool-executor", "fork-join-executor", "thread-pool-executor"})
  void anExceptionInOnReceiveNeverKillsADispatcherThreadNorLosesOtherActorsMessages(String executor, TestKit kit) {
    ActorSystem sys = troupe.createSystem(MailboxTest.dispatcherConfig("test-dispatcher", executor, 2, 5));
    int actors = 20;
    int perActor = 500;
    List<ActorRef> refs = new ArrayList<>();
    List<AtomicInteger> seen = new ArrayList<>();
    for (int i = 0; i < actors; i++) {
      AtomicInteger s = new AtomicInteger();
      seen.add(s);
      refs.add(sys.actorOf(Props.create(Flaky.class, s, i % 2 == 0 ? 7 : 0).withDispatcher("test-dispatcher")));
    }
    for (int n = 0; n < perActor; n++) {
      for (ActorRef r : refs) {
        r.tell(n, ActorRef.noSender());
      }
    }
    // a failed message is dropped, but the restarted actor goes on with the rest of its queue
    kit.awaitCond("every actor to be handed all " + perActor + " messages: " + seen,
        () -> seen.stream().allMatch(s -> s.get() == perActor));
    Set<String> workers = TestKit.liveThreads(sys.name() + "-test-dispatcher-");
    assertEquals(2, workers.size(), "dispatcher threads died or were replaced: " + workers);
  }

  /** Fails in preStart. */
  static final class FailingStart extends UntypedActor {
    @Override
    public void preStart() {
      throw new IllegalStateException("cannot start");
    }

    @Override
    public void onReceive(Object message) {}
  }

  /** Creates a FailingStart child, watches it, and forwards what it hears to a probe. */
  static final class Parent extends UntypedActor {
    private final ActorRef report;

    Parent(ActorRef report) {
      this.report = report;
    }

    @Override
    public void preStart() {
      ActorRef child = getContext().actorOf(Props.create(FailingStart.class), "child");
      getContext().watch(child);
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof Terminated t) {
        report.tell("terminated " + t.actor().path(), getSelf());
        report.tell(getContext().findChild("child").isPresent() ? "child still listed" : "child gone", getSelf());
      }
    }
  }

  /** Supervises a FailingStart child, reporting the failure its strategy is asked about. */
  static final class Recording extends UntypedActor {
    private final ActorRef report;

    Recording(ActorRef report) {
      this.report = report;
      getContext().actorOf(Props.create(FailingStart.class), "child");
    }

    @Override
    public SupervisorStrategy supervisorStrategy() {
      return new OneForOneStrategy(-1, cause -> {
        report.tell(cause, getSelf());
        return SupervisorStrategy.defaultDecider().decide(cause);
      });
    }

    @Override
    public void onReceive(Object message) {}
  }

  @Test
  void anExceptionInPreStartReachesTheSupervisorAsActorInitializationException(ActorSystem sys) {
    TestProbe p = new TestProbe(sys);
    sys.actorOf(Props.create(Recording.class, p.getRef()), "parent");
    ActorInitializationException e = p.expectMsgClass(ActorInitializationException.class);
    assertEquals("child", e.getActor().path().name());
    assertEquals(IllegalStateException.class, e.getCause().getClass());
    assertEquals(SupervisorStrategy.stop(), SupervisorStrategy.defaultDecider().decide(e));
  }

  @Test
  void anExceptionInPreStartStopsTheActorAndItsParentAndWatchersSeeItGone(ActorSystem sys) {
    TestProbe fromParent = new TestProbe(sys);
    TestProbe unhandled = new TestProbe(sys);
    sys.eventStream().subscribe(unhandled.getRef(), UnhandledMessage.class);
    ActorRef parent = sys.actorOf(Props.create(Parent.class, fromParent.getRef()), "parent");
    fromParent.expectMsg("terminated " + parent.path().child("child"));
    fromParent.expectMsg("child gone");

    // a top-level actor failing in preStart is stopped too; a watcher sees it terminate
    TestProbe watcher = new TestProbe(sys);
    ActorRef top = sys.actorOf(Props.create(FailingStart.class), "top");
    watcher.watch(top);
    assertEquals(top, watcher.expectMsgClass(Terminated.class).actor());
    watcher.awaitCond("the stopped actor's name to be released", () -> {
      try {
        sys.actorOf(Props.create(FailingStart.class), "top"); // the name is free again
        return true;
      } catch (InvalidActorNameException stillThere) {
        return false;
      }
    });
  }

  /** Counts its incarnations; "boom" throws; anything else answers with the incarnation number. */
  static final class Restartable extends UntypedActor {
    private final int incarnation;

    Restartable(AtomicInteger constructed) {
      this.incarnation = constructed.incrementAndGet();
    }

    @Override
    public void onReceive(Object message) throws Exception {
      if ("boom".equals(message)) {
        throw new Exception("boom");
      }
      getSender().tell(incarnation, getSelf());
    }
  }

  @Test
  void theDefaultStrategyRestartsAnActorOnExceptionKeepingItsRef(ActorSystem sys, TestKit kit) {
    AtomicInteger constructed = new AtomicInteger();
    ActorRef a = sys.actorOf(Props.create(Restartable.class, constructed), "r");
    assertEquals(1, kit.awaitResult(Patterns.ask(a, "which", Duration.ofSeconds(5))));
    a.tell("boom", ActorRef.noSender());
    assertEquals(2, kit.awaitResult(Patterns.ask(a, "which", Duration.ofSeconds(5))), "not answered by a new instance");
    assertEquals(2, constructed.get());
    a.tell("boom", ActorRef.noSender());
    a.tell("boom", ActorRef.noSender());
    assertEquals(4, kit.awaitResult(Patterns.ask(a, "which", Duration.ofSeconds(5))));
  }

  @Test
  void killStopsAnActorUnderTheDefaultStrategy(ActorSystem sys) {
    AtomicInteger constructed = new AtomicInteger();
    ActorRef a = sys.actorOf(Props.create(Restartable.class, constructed));
    TestProbe w = new TestProbe(sys);
    w.watch(a);
    a.tell(Kill.getInstance(), ActorRef.noSender());
    assertEquals(a, w.expectMsgClass(Terminated.class).actor());
    assertEquals(1, constructed.get());
  }
}
