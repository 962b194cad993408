package dev.troupe.actor.tests.routing;

import static dev.troupe.actor.tests.routing.RoutingFixtures.WAIT;
import static dev.troupe.actor.tests.routing.RoutingFixtures.routeeRefs;
import static dev.troupe.actor.tests.routing.RoutingFixtures.routees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Identify;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.SupervisorStrategy;
import dev.troupe.actor.tests.routing.RoutingFixtures.Block;
import dev.troupe.actor.tests.routing.RoutingFixtures.Got;
import dev.troupe.actor.tests.routing.RoutingFixtures.Reporter;
import dev.troupe.routing.ActorRefRoutee;
import dev.troupe.routing.AddRoutee;
import dev.troupe.routing.AdjustPoolSize;
import dev.troupe.routing.Broadcast;
import dev.troupe.routing.DefaultResizer;
import dev.troupe.routing.RemoveRoutee;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.routing.Routee;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RouterManagementTest {
  @RegisterExtension
  static final ActorSystemExtension troupe = ActorSystemExtension.perClass(RoutingFixtures.CONFIG);

  private static Props reporter(TestProbe probe) {
    return Props.create(Reporter.class, probe.getRef());
  }

  @Test
  void getRouteesAnswersWithTheChildRefsOfAPool() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new RoundRobinPool(3)), "managed");
    List<Routee> routees = routees(probe, router);
    assertEquals(3, routees.size());
    for (Routee r : routees) {
      ActorRef ref = ((ActorRefRoutee) r).ref();
      assertEquals(router.path(), ref.path().parent(), "a pool routee is the router's child");
    }
    assertEquals("/user/managed", router.path().toStringWithoutAddress());
  }

  @Test
  void addRouteeAndRemoveRouteeChangeWhereMessagesGo() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new RoundRobinPool(1)));
    ActorRef original = routeeRefs(probe, router).get(0);
    ActorRef extra = system.actorOf(reporter(probe));
    router.tell(new AddRoutee(new ActorRefRoutee(extra)), ActorRef.noSender());
    assertEquals(List.of(original, extra), routeeRefs(probe, router));

    // A probe of its own for the death watch: the runtime does not order the router's Routees
    // reply against the removed routee's Terminated, so one probe could see either first.
    TestProbe watcher = new TestProbe(system);
    watcher.watch(original);
    router.tell(new RemoveRoutee(new ActorRefRoutee(original)), ActorRef.noSender());
    assertEquals(List.of(extra), routeeRefs(probe, router));
    watcher.expectTerminated(WAIT, original); // a removed child routee is stopped
    for (int i = 0; i < 3; i++) {
      router.tell(i, probe.getRef());
      assertEquals(extra, probe.expectMsgClass(WAIT, Got.class).routee());
    }
  }

  @Test
  void adjustPoolSizeGrowsAndShrinksThePool() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new RoundRobinPool(2)));
    router.tell(new AdjustPoolSize(3), ActorRef.noSender());
    assertEquals(5, routeeRefs(probe, router).size());
    List<ActorRef> before = routeeRefs(probe, router);
    router.tell(new AdjustPoolSize(-4), ActorRef.noSender());
    List<ActorRef> after = routeeRefs(probe, router);
    assertEquals(List.of(before.get(0)), after);
    probe.watch(before.get(4));
    probe.expectTerminated(WAIT, before.get(4));
  }

  @Test
  void aBroadcastKeepsItsOrderWithTheSendersLaterMessages() {
    // Per-sender ordering: every routee must see the broadcast before any later message of the
    // same sender. (A broadcast that took a detour through the router actor lost this.)
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new RoundRobinPool(4)));
    int rounds = 50;
    for (int round = 0; round < rounds; round++) {
      router.tell(new Broadcast("start " + round), ActorRef.noSender());
      for (int i = 0; i < 8; i++) {
        router.tell("job " + round, ActorRef.noSender());
      }
    }
    java.util.Map<ActorRef, String> lastStart = new java.util.HashMap<>();
    for (Object o : probe.receiveN(rounds * 12, WAIT)) {
      Got g = (Got) o;
      String m = (String) g.message();
      if (m.startsWith("start ")) {
        lastStart.put(g.routee(), m.substring(6));
      } else {
        assertEquals(m.substring(4), lastStart.get(g.routee()),
            g.routee() + " got '" + m + "' before the broadcast of its round");
      }
    }
  }

  @Test
  void broadcastReachesEveryRouteeWithTheOriginalSender() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    TestProbe sender = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new RoundRobinPool(4)));
    router.tell(new Broadcast("hello all"), sender.getRef());
    Set<ActorRef> reached = new HashSet<>();
    for (Object o : probe.receiveN(4, WAIT)) {
      Got g = (Got) o;
      assertEquals("hello all", g.message());
      assertEquals(sender.getRef(), g.sender());
      reached.add(g.routee());
    }
    assertEquals(Set.copyOf(routeeRefs(probe, router)), reached);
  }

  @Test
  void poisonPillStopsTheRouterAndItsRoutees() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new RoundRobinPool(3)));
    List<ActorRef> routees = routeeRefs(probe, router);
    for (ActorRef r : routees) {
      probe.watch(r);
    }
    probe.watch(router);
    router.tell(PoisonPill.getInstance(), ActorRef.noSender());
    Set<ActorRef> dead = new HashSet<>();
    for (int i = 0; i < 4; i++) {
      dead.add(probe.expectMsgClass(WAIT, dev.troupe.actor.Terminated.class).actor());
    }
    assertTrue(dead.contains(router) && dead.containsAll(routees), "terminated: " + dead);
  }

  @Test
  void aRouteeThatStopsIsRemovedAndThePoolStopsWithItsLastRoutee() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new RoundRobinPool(2)));
    List<ActorRef> routees = routeeRefs(probe, router);
    probe.watch(router);
    routees.get(0).tell(PoisonPill.getInstance(), ActorRef.noSender());
    probe.awaitCond(WAIT, () -> routeeRefs(probe, router).equals(List.of(routees.get(1))));
    routees.get(1).tell(PoisonPill.getInstance(), ActorRef.noSender());
    probe.expectTerminated(WAIT, router);
  }

  /**
   * A pool with a resizer outlives its last routee (its resizer may grow it again): when every
   * routee has stopped, the router still answers; the next routed message goes to dead letters and
   * has the resizer bring the pool back to its lower bound.
   */
  @Test
  void aPoolWithAResizerOutlivesItsLastRouteeAndGrowsBackToItsLowerBound() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(
        new RoundRobinPool(1).withResizer(new DefaultResizer(1, 2).withMessagesPerResize(1))));
    List<ActorRef> first = routeeRefs(probe, router);
    assertEquals(1, first.size());
    probe.watch(router);
    probe.watch(first.get(0));
    first.get(0).tell(PoisonPill.getInstance(), ActorRef.noSender());
    probe.expectTerminated(WAIT, first.get(0));
    // the router has seen its routee's death when it answers no routees; a stopped router answers nothing
    probe.awaitCond(WAIT, () -> routeeRefs(probe, router).isEmpty());
    router.tell("to dead letters, and a resize", ActorRef.noSender());
    probe.awaitCond(WAIT, () -> routeeRefs(probe, router).size() == 1);
    router.tell("hello", probe.getRef());
    assertEquals("hello", probe.expectMsgClass(WAIT, Got.class).message());
  }

  @Test
  void aFailingRouteeIsHandledByThePoolsSupervisorStrategy() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(
        Props.create(Failing.class)
            .withRouter(new RoundRobinPool(2).withSupervisorStrategy(SupervisorStrategy.stoppingStrategy())));
    List<ActorRef> routees = routeeRefs(probe, router);
    router.tell("fail", ActorRef.noSender()); // routee 0 fails and is stopped, so it is removed
    probe.awaitCond(WAIT, () -> routeeRefs(probe, router).equals(List.of(routees.get(1))));
  }

  static final class Failing extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> {
        throw new IllegalStateException("routee failure (expected by the test)");
      }).build();
    }
  }

  @Test
  void aMessageToARouterWithoutRouteesGoesToDeadLetters() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    system.eventStream().subscribe(probe.getRef(), DeadLetter.class);
    try {
      // With a resizer the pool stays alive when empty.
      ActorRef router = system.actorOf(
          reporter(probe).withRouter(new RoundRobinPool(1).withResizer(new DefaultResizer(0, 2).withMessagesPerResize(1000))));
      router.tell(new AdjustPoolSize(-1), ActorRef.noSender());
      assertTrue(routees(probe, router).isEmpty());
      router.tell("nobody home", probe.getRef());
      DeadLetter d = probe.expectMsgClass(WAIT, DeadLetter.class);
      assertEquals("nobody home", d.message());
      assertEquals(router, d.recipient());
      assertEquals(probe.getRef(), d.sender());
    } finally {
      system.eventStream().unsubscribe(probe.getRef(), DeadLetter.class);
    }
  }

  @Test
  void identifyThroughASelectionResolvesToTheRouterRef() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new RoundRobinPool(2)), "identified");
    system.actorSelection("/user/identified").tell(new Identify("who"), probe.getRef());
    ActorIdentity id = probe.expectMsgClass(WAIT, ActorIdentity.class);
    assertEquals(router, id.ref().orElseThrow());
    system.actorSelection("/user/identified").tell("via selection", probe.getRef());
    assertEquals("via selection", probe.expectMsgClass(WAIT, Got.class).message());
  }

  /**
   * Routing happens on the router's ref, in the sender's thread: with the router actor unable to
   * run at all (its only dispatcher thread is blocked, so it has not even started), ordinary
   * messages still reach the routees, with the original sender. If they went through the router
   * actor's mailbox, none would arrive.
   */
  @Test
  void ordinaryMessagesBypassTheRouterActorsMailbox() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    CountDownLatch release = new CountDownLatch(1);
    ActorRef blocker = system.actorOf(reporter(probe).withDispatcher("single-thread-dispatcher"));
    try {
      blocker.tell(new Block(release), ActorRef.noSender());
      probe.expectMsgClass(WAIT, Got.class); // the single thread is now blocked
      ActorRef router = system.actorOf(
          reporter(probe).withRouter(new RoundRobinPool(2).withRouterDispatcher("single-thread-dispatcher")));
      for (int i = 0; i < 4; i++) {
        router.tell(i, probe.getRef());
      }
      for (Object o : probe.receiveN(4, WAIT)) {
        assertEquals(probe.getRef(), ((Got) o).sender(), "the routee sees the original sender");
      }
      router.tell(dev.troupe.routing.GetRoutees.getInstance(), probe.getRef());
      probe.expectNoMessage(Duration.ofMillis(100)); // management does go through the stuck router
      assertFalse(release.getCount() == 0);
    } finally {
      release.countDown();
    }
    probe.expectMsgClass(WAIT, dev.troupe.routing.Routees.class);
  }
}
