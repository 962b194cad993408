package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorInitializationException;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.AllForOneStrategy;
import dev.troupe.actor.DeciderBuilder;
import dev.troupe.actor.Kill;
import dev.troupe.actor.OneForOneStrategy;
import dev.troupe.actor.Props;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ActorSystemExtension.class)
class SupervisionTest {

  /** Reports its lifecycle to a probe; fails on "boom", throws ArithmeticException on "div0". */
  static class Worker extends AbstractActor {
    final ActorRef probe;
    final AtomicInteger instances;
    final int id;
    int state;
    int zero; // a field, not a constant: the division by zero happens at run time

    Worker(ActorRef probe, AtomicInteger instances) {
      this.probe = probe;
      this.instances = instances;
      this.id = instances.incrementAndGet();
    }

    @Override
    public void preStart() {
      probe.tell("preStart " + getSelf().path().name() + " #" + id, getSelf());
    }

    @Override
    public void postStop() {
      probe.tell("postStop " + getSelf().path().name() + " #" + id, getSelf());
    }

    @Override
    public void preRestart(Throwable reason, Optional<Object> message) throws Exception {
      probe.tell("preRestart " + getSelf().path().name() + " " + reason.getMessage() + " " + message.orElse("-"), getSelf());
      super.preRestart(reason, message);
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("boom", m -> { throw new IllegalStateException("boom"); })
          .matchEquals("div0", m -> { state = state / zero; })
          .matchEquals("inc", m -> state++)
          .matchEquals("state", m -> getSender().tell(state, getSelf()))
          .matchEquals("id", m -> getSender().tell(id, getSelf()))
          .match(Props.class, p -> getSender().tell(getContext().actorOf(p, "kid"), getSelf()))
          .matchAny(m -> getSender().tell("echo " + m, getSelf()))
          .build();
    }
  }

  /** A parent with a given strategy; creates children on request and forwards anything else. */
  static class Parent extends AbstractActor {
    private final SupervisorStrategy strategy;

    Parent(SupervisorStrategy strategy) {
      this.strategy = strategy;
    }

    @Override
    public SupervisorStrategy supervisorStrategy() {
      return strategy;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Child.class, c -> getSender().tell(getContext().actorOf(c.props(), c.name()), getSelf()))
          .match(Block.class, b -> {
            b.entered().countDown();
            b.release().await(10, TimeUnit.SECONDS); // blocks on purpose: the test releases it
          })
          .build();
    }
  }

  record Child(Props props, String name) {}

  record Block(CountDownLatch entered, CountDownLatch release) {}

  private static ActorRef child(TestKit kit, ActorRef parent, Props props, String name) {
    parent.tell(new Child(props, name), kit.getRef());
    return kit.expectMsgClass(ActorRef.class);
  }

  private static ActorRef parent(ActorSystem system, SupervisorStrategy s) {
    return system.actorOf(Props.create(Parent.class, s));
  }

  private static final SupervisorStrategy RESTART_ALWAYS =
      new OneForOneStrategy(DeciderBuilder.matchAny(e -> SupervisorStrategy.restart()).build());

  @Test
  void restartKeepsTheRefAndTheMailboxAndCreatesAFreshInstance(ActorSystem system, TestKit kit) {
    TestProbe life = new TestProbe(system);
    AtomicInteger instances = new AtomicInteger();
    ActorRef p = parent(system, RESTART_ALWAYS);
    ActorRef w = child(kit, p, Props.create(Worker.class, life.getRef(), instances), "w");
    life.expectMsg("preStart w #1");
    kit.send(w, "inc");
    kit.send(w, "boom");
    kit.send(w, "a"); // queued behind the failure: must survive the restart
    kit.send(w, "state");
    life.expectMsg("preRestart w boom boom");
    life.expectMsg("postStop w #1");
    life.expectMsg("preStart w #2");
    kit.expectMsg("echo a");
    kit.expectMsg(0); // fresh instance: state was reset
    assertSame(w, kit.getLastSender(), "the same ref answers after the restart");
    assertEquals(2, instances.get());
  }

  @Test
  void resumeKeepsTheActorsState(ActorSystem system, TestKit kit) {
    SupervisorStrategy s = new OneForOneStrategy(
        DeciderBuilder.match(ArithmeticException.class, e -> SupervisorStrategy.resume()).build());
    AtomicInteger instances = new AtomicInteger();
    ActorRef w = child(kit, parent(system, s), Props.create(Worker.class, system.deadLetters(), instances), "w");
    kit.send(w, "inc");
    kit.send(w, "inc");
    kit.send(w, "div0");
    kit.send(w, "state");
    kit.expectMsg(2);
    assertEquals(1, instances.get(), "resume must not create a new instance");
  }

  @Test
  void restartsBeyondTheLimitWithinTheWindowStopTheChild(ActorSystem system, TestKit kit) {
    SupervisorStrategy s = new OneForOneStrategy(2, Duration.ofMinutes(1),
        DeciderBuilder.matchAny(e -> SupervisorStrategy.restart()).build());
    AtomicInteger instances = new AtomicInteger();
    ActorRef w = child(kit, parent(system, s), Props.create(Worker.class, system.deadLetters(), instances), "w");
    kit.watch(w);
    kit.send(w, "boom");
    kit.send(w, "id");
    kit.expectMsg(2);
    kit.send(w, "boom");
    kit.send(w, "id");
    kit.expectMsg(3);
    kit.send(w, "boom"); // the third failure within a minute: stop
    kit.expectTerminated(w);
    assertEquals(3, instances.get());
  }

  @Test
  void theRestartCountStartsAfreshWhenTheWindowHasPassed(ActorSystem system, TestKit kit) {
    SupervisorStrategy s = new OneForOneStrategy(1, Duration.ofMillis(200),
        DeciderBuilder.matchAny(e -> SupervisorStrategy.restart()).build());
    AtomicInteger instances = new AtomicInteger();
    ActorRef w = child(kit, parent(system, s), Props.create(Worker.class, system.deadLetters(), instances), "w");
    kit.watch(w);
    kit.send(w, "boom");
    kit.send(w, "id");
    kit.expectMsg(2);
    kit.expectNoMessage(Duration.ofMillis(300)); // let the window pass: the wait is the behaviour
    kit.send(w, "boom");
    kit.send(w, "id");
    kit.expectMsg(3);
    kit.send(w, "boom"); // second failure inside the new window: stop
    kit.expectTerminated(w);
  }

  @Test
  void zeroRetriesStopsAtTheFirstFailure(ActorSystem system, TestKit kit) {
    SupervisorStrategy s = new OneForOneStrategy(0, DeciderBuilder.matchAny(e -> SupervisorStrategy.restart()).build());
    ActorRef w = child(kit, parent(system, s), Props.create(Worker.class, system.deadLetters(), new AtomicInteger()), "w");
    kit.watch(w);
    kit.send(w, "boom");
    kit.expectTerminated(w);
  }

  @Test
  void allForOneRestartsEverySibling(ActorSystem system, TestKit kit) {
    SupervisorStrategy s = new AllForOneStrategy(DeciderBuilder.matchAny(e -> SupervisorStrategy.restart()).build());
    ActorRef p = parent(system, s);
    AtomicInteger a = new AtomicInteger();
    AtomicInteger b = new AtomicInteger();
    ActorRef wa = child(kit, p, Props.create(Worker.class, system.deadLetters(), a), "a");
    ActorRef wb = child(kit, p, Props.create(Worker.class, system.deadLetters(), b), "b");
    kit.send(wb, "inc");
    kit.send(wb, "state");
    kit.expectMsg(1); // processed by the first instance before anything fails
    kit.send(wa, "boom");
    kit.send(wa, "id");
    kit.expectMsg(2);
    kit.send(wb, "id");
    kit.expectMsg(2);
    kit.send(wb, "state");
    kit.expectMsg(0);
  }

  @Test
  void oneForOneLeavesSiblingsAlone(ActorSystem system, TestKit kit) {
    ActorRef p = parent(system, RESTART_ALWAYS);
    AtomicInteger b = new AtomicInteger();
    ActorRef wa = child(kit, p, Props.create(Worker.class, system.deadLetters(), new AtomicInteger()), "a");
    ActorRef wb = child(kit, p, Props.create(Worker.class, system.deadLetters(), b), "b");
    kit.send(wb, "inc");
    kit.send(wb, "state");
    kit.expectMsg(1);
    kit.send(wa, "boom");
    kit.send(wa, "id");
    kit.expectMsg(2);
    kit.send(wb, "state");
    kit.expectMsg(1);
    assertEquals(1, b.get());
  }

  @Test
  void allForOneStopStopsEverySibling(ActorSystem system, TestKit kit) {
    SupervisorStrategy s = new AllForOneStrategy(DeciderBuilder.matchAny(e -> SupervisorStrategy.stop()).build());
    ActorRef p = parent(system, s);
    ActorRef wa = child(kit, p, Props.create(Worker.class, system.deadLetters(), new AtomicInteger()), "a");
    ActorRef wb = child(kit, p, Props.create(Worker.class, system.deadLetters(), new AtomicInteger()), "b");
    kit.watch(wa);
    kit.watch(wb);
    kit.send(wa, "boom");
    kit.expectMsgClass(dev.troupe.actor.Terminated.class);
    kit.expectMsgClass(dev.troupe.actor.Terminated.class);
  }

  @Test
  void escalateHandsTheFailureToTheGrandparent(ActorSystem system, TestKit kit) {
    TestProbe decisions = new TestProbe(system);
    SupervisorStrategy grand = new OneForOneStrategy(DeciderBuilder.matchAny(e -> {
      decisions.getRef().tell("grandparent saw " + e.getMessage(), ActorRef.noSender());
      return SupervisorStrategy.restart();
    }).build());
    SupervisorStrategy escalating = new OneForOneStrategy(DeciderBuilder.matchAny(e -> SupervisorStrategy.escalate()).build());
    ActorRef g = parent(system, grand);
    ActorRef p = child(kit, g, Props.create(Parent.class, escalating), "p");
    ActorRef w = child(kit, p, Props.create(Worker.class, system.deadLetters(), new AtomicInteger()), "w");
    kit.watch(w);
    kit.send(w, "boom");
    decisions.expectMsg("grandparent saw boom");
    // the parent restarted: its default preRestart stopped its children
    kit.expectTerminated(w);
  }

  @Test
  void aDeciderWithNoMatchingCaseEscalates(ActorSystem system, TestKit kit) {
    TestProbe decisions = new TestProbe(system);
    SupervisorStrategy grand = new OneForOneStrategy(DeciderBuilder.matchAny(e -> {
      decisions.getRef().tell(e.getClass().getSimpleName(), ActorRef.noSender());
      return SupervisorStrategy.resume();
    }).build());
    SupervisorStrategy onlyArithmetic = new OneForOneStrategy(
        DeciderBuilder.match(ArithmeticException.class, e -> SupervisorStrategy.resume()).build());
    ActorRef g = parent(system, grand);
    ActorRef p = child(kit, g, Props.create(Parent.class, onlyArithmetic), "p");
    ActorRef w = child(kit, p, Props.create(Worker.class, system.deadLetters(), new AtomicInteger()), "w");
    kit.send(w, "boom");
    decisions.expectMsg("IllegalStateException");
  }

  @Test
  void aFailedChildStaysSuspendedUntilItsParentDecides(ActorSystem system, TestKit kit) {
    ActorRef p = parent(system, RESTART_ALWAYS);
    ActorRef w = child(kit, p, Props.create(Worker.class, system.deadLetters(), new AtomicInteger()), "w");
    Block busy = new Block(new CountDownLatch(1), new CountDownLatch(1));
    p.tell(busy, ActorRef.noSender());
    kit.awaitCond(() -> busy.entered().getCount() == 0); // the parent cannot process Failed now
    kit.send(w, "boom");
    kit.send(w, "id");
    kit.expectNoMessage(Duration.ofMillis(300)); // suspended: the wait is the behaviour under test
    busy.release().countDown();
    kit.expectMsg(2); // restarted, then the queued message is processed
  }

  @Test
  void theRetryIdiomForwardsTheFailedMessageInPreRestartKeepingTheSender(ActorSystem system, TestKit kit) {
    ActorRef p = parent(system, RESTART_ALWAYS);
    ActorRef w = child(kit, p, Props.create(Retrying.class, new AtomicInteger()), "r");
    kit.send(w, "work");
    kit.expectMsg("done on attempt 2");
  }

  /** Fails on its first attempt; retries by forwarding the message to itself in preRestart. */
  static class Retrying extends AbstractActor {
    final AtomicInteger attempts;

    Retrying(AtomicInteger attempts) {
      this.attempts = attempts;
    }

    @Override
    public void preRestart(Throwable reason, Optional<Object> message) throws Exception {
      message.ifPresent(m -> getSelf().forward(m, getContext()));
      super.preRestart(reason, message);
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchEquals("work", m -> {
        if (attempts.incrementAndGet() == 1) {
          throw new IllegalStateException("first attempt fails");
        }
        getSender().tell("done on attempt " + attempts.get(), getSelf());
      }).build();
    }
  }

  @Test
  void defaultPreRestartStopsTheChildrenAndPostRestartRunsPreStart(ActorSystem system, TestKit kit) {
    TestProbe life = new TestProbe(system);
    ActorRef p = parent(system, RESTART_ALWAYS);
    ActorRef w = child(kit, p, Props.create(Worker.class, life.getRef(), new AtomicInteger()), "w");
    life.expectMsg("preStart w #1");
    kit.send(w, Props.create(Worker.class, life.getRef(), new AtomicInteger(100)));
    ActorRef kid = kit.expectMsgClass(ActorRef.class);
    life.expectMsg("preStart kid #101");
    kit.watch(kid);
    kit.send(w, "boom");
    life.expectMsg("preRestart w boom boom");
    // the child stops asynchronously, so the two postStops may come in either order; the new
    // instance starts only after both
    assertEquals(java.util.Set.of("postStop kid #101", "postStop w #1"), new java.util.HashSet<>(life.receiveN(2)));
    life.expectMsg("preStart w #2");
    kit.expectTerminated(kid);
  }

  @Test
  void killFailsTheActorWithActorKilledExceptionAndTheDefaultStrategyStopsIt(ActorSystem system, TestKit kit) {
    ActorRef w = system.actorOf(Props.create(Worker.class, system.deadLetters(), new AtomicInteger()));
    kit.watch(w);
    w.tell(Kill.getInstance(), ActorRef.noSender());
    kit.expectTerminated(w);
  }

  /** Fails in its constructor a given number of times. */
  static class FailingConstructor extends AbstractActor {
    FailingConstructor(AtomicInteger failuresLeft, ActorRef probe) {
      if (failuresLeft.getAndDecrement() > 0) {
        throw new IllegalStateException("constructor failed");
      }
      probe.tell("constructed", ActorRef.noSender());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell(m, getSelf())).build();
    }
  }

  @Test
  void aConstructorFailureIsAnActorInitializationExceptionAndStopsTheActorByDefault(ActorSystem system, TestKit kit) {
    TestProbe decisions = new TestProbe(system);
    SupervisorStrategy recordingDefault = new OneForOneStrategy(DeciderBuilder.matchAny(e -> {
      decisions.getRef().tell(e, ActorRef.noSender());
      return SupervisorStrategy.defaultDecider().decide(e);
    }).build());
    ActorRef p = parent(system, recordingDefault);
    ActorRef w = child(kit, p, Props.create(FailingConstructor.class, new AtomicInteger(1), kit.getRef()), "w");
    kit.watch(w);
    ActorInitializationException e = decisions.expectMsgClass(ActorInitializationException.class);
    assertInstanceOf(IllegalStateException.class, e.getCause());
    kit.expectTerminated(w);
  }

  @Test
  void restartingAfterAConstructorFailureTriesToCreateTheActorAgain(ActorSystem system, TestKit kit) {
    ActorRef p = parent(system, RESTART_ALWAYS);
    ActorRef w = child(kit, p, Props.create(FailingConstructor.class, new AtomicInteger(2), kit.getRef()), "w");
    kit.send(w, "hello");
    kit.expectMsg("constructed");
    kit.expectMsg("hello");
  }

  @Test
  void stoppingStrategyStopsAFailingChild(ActorSystem system, TestKit kit) {
    ActorRef p = parent(system, SupervisorStrategy.stoppingStrategy());
    ActorRef w = child(kit, p, Props.create(Worker.class, system.deadLetters(), new AtomicInteger()), "w");
    kit.watch(w);
    kit.send(w, "boom");
    kit.expectTerminated(w);
  }

  @Test
  void theDefaultDeciderRestartsExceptionsAndStopsInitializationKillAndDeathPact() {
    var d = SupervisorStrategy.defaultDecider();
    assertEquals(dev.troupe.actor.Directive.RESTART, d.decide(new IllegalStateException()));
    assertEquals(dev.troupe.actor.Directive.STOP, d.decide(new ActorInitializationException(null, "x", null)));
    assertEquals(dev.troupe.actor.Directive.STOP, d.decide(new dev.troupe.actor.ActorKilledException("x")));
    assertEquals(dev.troupe.actor.Directive.STOP, d.decide(new dev.troupe.actor.DeathPactException(null)));
    assertEquals(dev.troupe.actor.Directive.ESCALATE, d.decide(new AssertionError()));
  }

  @Test
  void strategiesValidateTheirArguments() {
    assertTrue(assertThrowsIae(() -> new OneForOneStrategy(-2, RESTART_ALWAYS.decider())).contains("maxNrOfRetries"));
    assertTrue(assertThrowsIae(() -> new OneForOneStrategy(1, Duration.ZERO, RESTART_ALWAYS.decider())).contains("withinTimeRange"));
    assertFalse(new OneForOneStrategy(RESTART_ALWAYS.decider()).appliesToAllChildren());
    assertTrue(new AllForOneStrategy(RESTART_ALWAYS.decider()).appliesToAllChildren());
  }

  private static String assertThrowsIae(Runnable r) {
    return org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }
}
