package dev.troupe.actor.tests.routing;

import static dev.troupe.actor.tests.routing.RoutingFixtures.WAIT;
import static dev.troupe.actor.tests.routing.RoutingFixtures.routeeRefs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.Props;
import dev.troupe.actor.tests.routing.RoutingFixtures.Block;
import dev.troupe.actor.tests.routing.RoutingFixtures.Got;
import dev.troupe.actor.tests.routing.RoutingFixtures.Reporter;
import dev.troupe.routing.BalancingPool;
import dev.troupe.routing.Broadcast;
import dev.troupe.routing.BroadcastPool;
import dev.troupe.routing.ConsistentHashable;
import dev.troupe.routing.ConsistentHashableEnvelope;
import dev.troupe.routing.ConsistentHashingPool;
import dev.troupe.routing.RandomPool;
import dev.troupe.routing.RoundRobinGroup;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.routing.SmallestMailboxPool;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestProbe;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RoutingLogicTest {
  @RegisterExtension
  static final ActorSystemExtension troupe = ActorSystemExtension.perClass(RoutingFixtures.CONFIG);

  private static Props reporter(TestProbe probe) {
    return Props.create(Reporter.class, probe.getRef());
  }

  /** Blocks one routee of {@code router} until {@code release} opens; returns its report. */
  private static Got blockOneRoutee(ActorRef router, CountDownLatch release, TestProbe probe) {
    router.tell(new Block(release), ActorRef.noSender());
    Got blocked = probe.expectMsgClass(WAIT, Got.class);
    assertEquals("blocked", blocked.message());
    return blocked;
  }

  /** A balancing pool of reporters on the blocking dispatcher, so that a routee may block. */
  private static ActorRef blockingBalancingPool(ActorSystem system, TestProbe probe, int routees) {
    return system.actorOf(reporter(probe).withDispatcher("blocking-dispatcher").withRouter(new BalancingPool(routees)));
  }

  @Test
  void roundRobinSendsToTheRouteesInExactTurn() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new RoundRobinPool(3)));
    List<ActorRef> routees = routeeRefs(probe, router);
    for (int i = 0; i < 12; i++) {
      router.tell(i, probe.getRef());
    }
    Map<Object, ActorRef> receivedBy = new HashMap<>();
    for (Object o : probe.receiveN(12, WAIT)) {
      Got g = (Got) o;
      receivedBy.put(g.message(), g.routee());
    }
    for (int i = 0; i < 12; i++) {
      assertEquals(routees.get(i % 3), receivedBy.get(i), "message " + i);
    }
  }

  @Test
  void randomSpreadsMessagesRoughlyUniformly() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    int routees = 4;
    int messages = 2000;
    ActorRef router = system.actorOf(reporter(probe).withRouter(new RandomPool(routees)));
    for (int i = 0; i < messages; i++) {
      router.tell(i, ActorRef.noSender());
    }
    Map<ActorRef, Integer> counts = new HashMap<>();
    for (Object o : probe.receiveN(messages, WAIT)) {
      counts.merge(((Got) o).routee(), 1, Integer::sum);
    }
    assertEquals(routees, counts.size(), "every routee got messages: " + counts);
    double expected = (double) messages / routees;
    double chiSquare = 0;
    for (int c : counts.values()) {
      chiSquare += (c - expected) * (c - expected) / expected;
    }
    // 3 degrees of freedom: p = 0.0001 at about 21; a fair random source stays far below 30.
    assertTrue(chiSquare < 30, "chi-square " + chiSquare + " for counts " + counts);
  }

  record Keyed(String key, int seq) implements ConsistentHashable {
    @Override
    public Object consistentHashKey() {
      return key;
    }
  }

  @Test
  void consistentHashingSendsEachKeyToOneRouteeAndSpreadsKeys() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new ConsistentHashingPool(5)));
    int keys = 60;
    for (int round = 0; round < 3; round++) {
      for (int k = 0; k < keys; k++) {
        Object m = round == 0 ? new Keyed("key-" + k, round) : new ConsistentHashableEnvelope("key-" + k + "/" + round, "key-" + k);
        router.tell(m, ActorRef.noSender());
      }
    }
    Map<String, Set<ActorRef>> byKey = new HashMap<>();
    for (Object o : probe.receiveN(3 * keys, WAIT)) {
      Got g = (Got) o;
      String key = g.message() instanceof Keyed kd ? kd.key() : ((String) g.message()).split("/")[0];
      byKey.computeIfAbsent(key, x -> new HashSet<>()).add(g.routee());
    }
    Set<ActorRef> used = new HashSet<>();
    for (Map.Entry<String, Set<ActorRef>> e : byKey.entrySet()) {
      assertEquals(1, e.getValue().size(), "key " + e.getKey() + " went to " + e.getValue());
      used.addAll(e.getValue());
    }
    assertTrue(used.size() >= 4, "60 keys should spread over most of 5 routees, used " + used.size());
  }

  @Test
  void consistentHashingUsesTheHashMapperFirst() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router =
        system.actorOf(
            reporter(probe)
                .withRouter(new ConsistentHashingPool(4).withVirtualNodesFactor(20).withHashMapper(m -> m instanceof String s ? s.substring(0, 1) : null)));
    for (String m : List.of("a1", "b1", "a2", "b2", "a3", "b3")) {
      router.tell(m, ActorRef.noSender());
    }
    Map<Character, Set<ActorRef>> byKey = new HashMap<>();
    for (Object o : probe.receiveN(6, WAIT)) {
      Got g = (Got) o;
      byKey.computeIfAbsent(((String) g.message()).charAt(0), x -> new HashSet<>()).add(g.routee());
    }
    assertEquals(1, byKey.get('a').size());
    assertEquals(1, byKey.get('b').size());
  }

  @Test
  void broadcastPoolSendsEveryMessageToAllRoutees() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new BroadcastPool(3)));
    router.tell("all", probe.getRef());
    Set<ActorRef> got = new HashSet<>();
    for (Object o : probe.receiveN(3, WAIT)) {
      got.add(((Got) o).routee());
    }
    assertEquals(Set.copyOf(routeeRefs(probe, router)), got);
  }

  @Test
  void smallestMailboxPrefersTheIdleRoutee() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router =
        system.actorOf(reporter(probe).withDispatcher("blocking-dispatcher").withRouter(new SmallestMailboxPool(3)));
    List<ActorRef> routees = routeeRefs(probe, router);
    CountDownLatch release = new CountDownLatch(1);
    try {
      for (ActorRef busy : routees.subList(0, 2)) {
        busy.tell(new Block(release), ActorRef.noSender());
        busy.tell("queued behind the block", ActorRef.noSender());
      }
      probe.receiveN(2, WAIT); // both are blocked now, each with a message waiting
      ActorRef free = routees.get(2);
      for (int i = 0; i < 10; i++) {
        router.tell("job " + i, probe.getRef());
        Got g = probe.expectMsgClass(WAIT, Got.class);
        assertEquals(free, g.routee(), "job " + i + " went to a blocked routee");
      }
    } finally {
      release.countDown();
    }
    probe.receiveN(2, WAIT); // the queued messages, after the release
  }

  @Test
  void balancingPoolKeepsWorkFlowingPastASlowMessage() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = blockingBalancingPool(system, probe, 3);
    CountDownLatch release = new CountDownLatch(1);
    try {
      Got blocked = blockOneRoutee(router, release, probe);
      int n = 60;
      for (int i = 0; i < n; i++) {
        router.tell(i, probe.getRef());
      }
      // All of them arrive while one routee is stuck: none was queued behind the slow message.
      Set<Object> seen = new HashSet<>();
      for (Object o : probe.receiveN(n, WAIT)) {
        Got g = (Got) o;
        assertTrue(!g.routee().equals(blocked.routee()), "work went to the blocked routee: " + g);
        assertEquals(probe.getRef(), g.sender());
        seen.add(g.message());
      }
      assertEquals(n, seen.size(), "each message exactly once");
    } finally {
      release.countDown();
    }
    router.tell("after", ActorRef.noSender());
    assertEquals("after", probe.expectMsgClass(WAIT, Got.class).message());
  }

  @Test
  void balancingPoolProcessesEveryMessageExactlyOnceUnderConcurrentSenders() throws Exception {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new BalancingPool(4)));
    int senders = 4;
    int each = 500;
    Thread[] threads = new Thread[senders];
    for (int t = 0; t < senders; t++) {
      int base = t * each;
      threads[t] = new Thread(() -> {
        for (int i = 0; i < each; i++) {
          router.tell(base + i, ActorRef.noSender());
        }
      });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join(WAIT.toMillis());
    }
    Set<Object> seen = new HashSet<>();
    for (Object o : probe.receiveN(senders * each, WAIT)) {
      assertTrue(seen.add(((Got) o).message()), "duplicate " + o);
    }
    probe.expectNoMessage(java.time.Duration.ofMillis(100));
  }

  @Test
  void balancingPoolRouteesShareTheQueueSoADirectSendToABusyRouteeIsTakenByAnother() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = blockingBalancingPool(system, probe, 3);
    CountDownLatch release = new CountDownLatch(1);
    try {
      ActorRef busy = blockOneRoutee(router, release, probe).routee();
      for (int i = 0; i < 20; i++) {
        busy.tell(i, probe.getRef()); // not through the router
      }
      Set<Object> seen = new HashSet<>();
      for (Object o : probe.receiveN(20, WAIT)) {
        Got g = (Got) o;
        assertTrue(!g.routee().equals(busy), "the busy routee processed " + g);
        seen.add(g.message());
      }
      assertEquals(20, seen.size(), "each message exactly once");
    } finally {
      release.countDown();
    }
  }

  @Test
  void balancingPoolStoppedWithABacklogLosesNothing() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system); // gets the routees' reports and the dead letters
    ActorRef router = blockingBalancingPool(system, probe, 2);
    List<ActorRef> routees = routeeRefs(probe, router);
    system.eventStream().subscribe(probe.getRef(), DeadLetter.class);
    try {
      CountDownLatch release = new CountDownLatch(1);
      int n = 200;
      try {
        router.tell(new Block(release), ActorRef.noSender());
        router.tell(new Block(release), ActorRef.noSender());
        probe.receiveN(2, WAIT); // both routees are blocked now
        for (int i = 0; i < n; i++) {
          router.tell(i, ActorRef.noSender());
        }
        probe.watch(router);
        router.tell(PoisonPill.getInstance(), ActorRef.noSender()); // stops the router and its routees
      } finally {
        release.countDown();
      }
      // Every message is processed or a dead letter, exactly once, whatever the stop overtook.
      Set<Integer> accounted = new HashSet<>();
      int processed = 0;
      boolean routerStopped = false;
      while (accounted.size() < n) {
        Object o = probe.receiveOne(WAIT);
        assertTrue(o != null, "lost: " + n + " sent, " + processed + " processed, "
            + (accounted.size() - processed) + " dead letters");
        if (o instanceof Got g && g.message() instanceof Integer i) {
          assertTrue(accounted.add(i), "processed twice or also a dead letter: " + i);
          processed++;
        } else if (o instanceof DeadLetter d && d.message() instanceof Integer i && routees.contains(d.recipient())) {
          assertTrue(accounted.add(i), "a dead letter twice or also processed: " + i);
        } else if (o instanceof Terminated t && t.actor().equals(router)) {
          routerStopped = true;
        }
      }
      if (!routerStopped) {
        probe.fishForMessage(WAIT, "the router's Terminated", m -> m instanceof Terminated t && t.actor().equals(router));
      }
    } finally {
      system.eventStream().unsubscribe(probe.getRef(), DeadLetter.class);
    }
  }

  @Test
  void balancingPoolBroadcastPoisonPillStopsEveryRoutee() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef router = system.actorOf(reporter(probe).withRouter(new BalancingPool(4)));
    List<ActorRef> routees = routeeRefs(probe, router);
    for (ActorRef r : routees) {
      probe.watch(r);
    }
    router.tell(new Broadcast(PoisonPill.getInstance()), ActorRef.noSender());
    Set<ActorRef> stopped = new HashSet<>();
    for (Object o : probe.receiveN(4, WAIT)) {
      stopped.add(((Terminated) o).actor());
    }
    assertEquals(new HashSet<>(routees), stopped);
  }

  @Test
  void roundRobinGroupSendsToItsPathsInTurn() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef a = system.actorOf(reporter(probe), "group-a");
    ActorRef b = system.actorOf(reporter(probe), "group-b");
    ActorRef router =
        system.actorOf(Props.create(Reporter.class, probe.getRef()).withRouter(new RoundRobinGroup("/user/group-a", "/user/group-b")));
    for (int i = 0; i < 4; i++) {
      router.tell(i, probe.getRef());
    }
    Map<Object, ActorRef> receivedBy = new HashMap<>();
    for (Object o : probe.receiveN(4, WAIT)) {
      Got g = (Got) o;
      receivedBy.put(g.message(), g.routee());
      assertEquals(probe.getRef(), g.sender());
    }
    assertEquals(Map.of(0, a, 1, b, 2, a, 3, b), receivedBy);
  }
}
