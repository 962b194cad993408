package dev.troupe.actor.tests.routing;

import static dev.troupe.actor.tests.routing.RoutingFixtures.WAIT;
import static dev.troupe.actor.tests.routing.RoutingFixtures.routeeRefs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.actor.tests.routing.RoutingFixtures.Got;
import dev.troupe.actor.tests.routing.RoutingFixtures.Reporter;
import dev.troupe.routing.BroadcastGroup;
import dev.troupe.routing.BroadcastPool;
import dev.troupe.routing.ConsistentHashableEnvelope;
import dev.troupe.routing.ConsistentHashingPool;
import dev.troupe.routing.DefaultResizer;
import dev.troupe.routing.FromConfig;
import dev.troupe.routing.RandomPool;
import dev.troupe.routing.RoundRobinGroup;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.routing.RouterConfig;
import dev.troupe.routing.ScatterGatherFirstCompletedPool;
import dev.troupe.routing.SmallestMailboxPool;
import dev.troupe.routing.TailChoppingPool;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

class RouterConfigTest {
  @RegisterExtension
  static final ActorSystemExtension troupe =
      ActorSystemExtension.perClass(
          RoutingFixtures.CONFIG
              + """
              troupe.actor.deployment {
                /rr { router = round-robin-pool, nr-of-instances = 3 }
                /random { router = random-pool, nr-of-instances = 2 }
                /smallest { router = smallest-mailbox-pool, nr-of-instances = 2 }
                /broadcast { router = broadcast-pool, nr-of-instances = 3 }
                /hashing { router = consistent-hashing-pool, nr-of-instances = 4, virtual-nodes-factor = 5 }
                /balancing { router = balancing-pool, nr-of-instances = 2 }
                /scatter { router = scatter-gather-pool, nr-of-instances = 2, within = 1s }
                /tail { router = tail-chopping-pool, nr-of-instances = 2, within = 1s, tail-chopping-router.interval = 50ms }
                /rr-group { router = round-robin-group, routees.paths = ["/user/target-a", "/user/target-b"] }
                /broadcast-group { router = broadcast-group, routees.paths = ["/user/target-a", "/user/target-b"] }
                /parent/nested { router = round-robin-pool, nr-of-instances = 2 }
                /pooled-on-own-dispatcher {
                  router = round-robin-pool, nr-of-instances = 2
                  pool-dispatcher { executor = thread-pool-executor }
                }
                /bad-nr { router = round-robin-pool, nr-of-instances = 0 }
                /bad-bounds { router = round-robin-pool, resizer { enabled = on, lower-bound = 5, upper-bound = 2 } }
                /bad-name { router = round-the-houses-pool }
                /bad-group { router = random-group }
                /bad-within { router = scatter-gather-pool, within = soon }
                /bad-type { router = round-robin-pool, nr-of-instances = many }
              }
              """);

  private static Props reporter(TestProbe probe) {
    return Props.create(Reporter.class, probe.getRef());
  }

  /** Sends six messages and records, per message, which routee indexes got it. */
  private static List<List<Integer>> signature(ActorRef router, TestProbe probe, boolean keyed, int expectedDeliveries) {
    List<ActorRef> routees = routeeRefs(probe, router);
    for (int i = 0; i < 6; i++) {
      router.tell(keyed ? new ConsistentHashableEnvelope(i, "key" + (i % 2)) : i, ActorRef.noSender());
    }
    Map<Integer, List<Integer>> byMessage = new HashMap<>();
    for (Object o : probe.receiveN(expectedDeliveries, WAIT)) {
      Got g = (Got) o;
      byMessage.computeIfAbsent((Integer) g.message(), k -> new ArrayList<>()).add(routees.indexOf(g.routee()));
    }
    List<List<Integer>> out = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      List<Integer> l = byMessage.getOrDefault(i, List.of());
      out.add(l.stream().sorted().toList());
    }
    return out;
  }

  @Test
  void routersFromConfigBehaveLikeTheSameRoutersInCode() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    record Case(String name, RouterConfig code, int routees, boolean keyed, boolean exact) {}
    List<Case> cases = List.of(
        new Case("rr", new RoundRobinPool(3), 3, false, true),
        new Case("random", new RandomPool(2), 2, false, false),
        new Case("smallest", new SmallestMailboxPool(2), 2, false, false),
        new Case("broadcast", new BroadcastPool(3), 3, false, true),
        new Case("hashing", new ConsistentHashingPool(4).withVirtualNodesFactor(5), 4, true, false),
        new Case("balancing", new dev.troupe.routing.BalancingPool(2), 2, false, false));
    for (Case c : cases) {
      ActorRef fromConfig = system.actorOf(reporter(probe).withRouter(FromConfig.getInstance()), c.name());
      ActorRef fromCode = system.actorOf(reporter(probe).withRouter(c.code()));
      assertEquals(c.routees(), routeeRefs(probe, fromConfig).size(), c.name());
      int deliveries = c.code() instanceof BroadcastPool ? 6 * c.routees() : 6;
      List<List<Integer>> a = signature(fromConfig, probe, c.keyed(), deliveries);
      List<List<Integer>> b = signature(fromCode, probe, c.keyed(), deliveries);
      if (c.exact()) {
        assertEquals(b, a, c.name() + ": same routees in the same order");
      } else {
        for (int i = 0; i < 6; i++) {
          assertEquals(b.get(i).size(), a.get(i).size(), c.name() + ": deliveries of message " + i);
        }
      }
      if (c.keyed()) {
        assertEquals(a.get(0), a.get(2), "same key, same routee");
        assertEquals(a.get(1), a.get(3), "same key, same routee");
      }
    }
  }

  @Test
  void firstReplyRoutersFromConfigAnswer() {
    ActorSystem system = troupe.system();
    TestProbe client = new TestProbe(system);
    Props echo = TestActors.echoActorProps();
    for (String name : List.of("scatter", "tail")) {
      ActorRef router = system.actorOf(echo.withRouter(FromConfig.getInstance()), name);
      router.tell("ping", client.getRef());
      assertEquals("ping", client.expectMsgClass(WAIT, String.class), name);
    }
    ActorRef code = system.actorOf(echo.withRouter(new ScatterGatherFirstCompletedPool(2, Duration.ofSeconds(1))));
    code.tell("ping", client.getRef());
    assertEquals("ping", client.expectMsgClass(WAIT, String.class));
    ActorRef tail = system.actorOf(echo.withRouter(new TailChoppingPool(2, Duration.ofSeconds(1), Duration.ofMillis(50))));
    tail.tell("ping", client.getRef());
    assertEquals("ping", client.expectMsgClass(WAIT, String.class));
  }

  @Test
  void groupsFromConfigAndCodeSendToTheSamePaths() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef a = system.actorOf(reporter(probe), "target-a");
    ActorRef b = system.actorOf(reporter(probe), "target-b");
    ActorRef fromConfig = system.actorOf(reporter(probe).withRouter(FromConfig.getInstance()), "rr-group");
    ActorRef fromCode = system.actorOf(reporter(probe).withRouter(new RoundRobinGroup(List.of("/user/target-a", "/user/target-b"))));
    for (ActorRef router : List.of(fromConfig, fromCode)) {
      router.tell(1, probe.getRef());
      router.tell(2, probe.getRef());
      Map<Object, ActorRef> by = new HashMap<>();
      for (Object o : probe.receiveN(2, WAIT)) {
        by.put(((Got) o).message(), ((Got) o).routee());
      }
      assertEquals(Map.of(1, a, 2, b), by);
    }
    ActorRef bc = system.actorOf(reporter(probe).withRouter(FromConfig.getInstance()), "broadcast-group");
    ActorRef bcCode = system.actorOf(reporter(probe).withRouter(new BroadcastGroup("/user/target-a", "/user/target-b")));
    bc.tell("x", probe.getRef());
    bcCode.tell("x", probe.getRef());
    probe.receiveN(4, WAIT);
  }

  @Test
  void deploymentSectionsAreLookedUpByThePathBelowUser() {
    ActorSystem system = troupe.system();
    TestProbe probe = new TestProbe(system);
    ActorRef parent = system.actorOf(Props.create(Parent.class, reporter(probe)), "parent");
    parent.tell("create", probe.getRef());
    ActorRef nested = probe.expectMsgClass(WAIT, ActorRef.class);
    assertEquals("/user/parent/nested", nested.path().toStringWithoutAddress());
    assertEquals(2, routeeRefs(probe, nested).size());

    ActorRef pooled = system.actorOf(reporter(probe).withRouter(FromConfig.getInstance()), "pooled-on-own-dispatcher");
    assertEquals(2, routeeRefs(probe, pooled).size());
    pooled.tell("hi", probe.getRef());
    assertEquals("hi", probe.expectMsgClass(WAIT, Got.class).message());
  }

  static final class Parent extends dev.troupe.actor.AbstractActor {
    private final Props child;

    Parent(Props child) {
      this.child = child;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("create", m -> getSender().tell(getContext().actorOf(child.withRouter(FromConfig.getInstance()), "nested"), getSelf()))
          .build();
    }
  }

  private static void assertFailsNaming(Class<? extends Throwable> type, String fragment, Executable call) {
    Throwable t = assertThrows(type, call);
    assertTrue(t.getMessage().contains(fragment), "message '" + t.getMessage() + "' should name " + fragment);
  }

  private static Supplier<ActorRef> fromConfig(String name) {
    return () -> troupe.system().actorOf(TestActors.echoActorProps().withRouter(FromConfig.getInstance()), name);
  }

  @Test
  void badDeploymentConfigFailsActorOfNamingTheKey() {
    String root = "troupe.actor.deployment.\"/";
    assertFailsNaming(ConfigurationException.class, root + "bad-nr\".nr-of-instances", fromConfig("bad-nr")::get);
    assertFailsNaming(ConfigurationException.class, root + "bad-bounds\".resizer.upper-bound", fromConfig("bad-bounds")::get);
    assertFailsNaming(ConfigurationException.class, root + "bad-name\".router", fromConfig("bad-name")::get);
    assertFailsNaming(ConfigurationException.class, root + "bad-group\".routees.paths", fromConfig("bad-group")::get);
    assertFailsNaming(ConfigurationException.class, root + "bad-within\".within", fromConfig("bad-within")::get);
    assertFailsNaming(ConfigurationException.class, root + "bad-type\".nr-of-instances", fromConfig("bad-type")::get);
    assertFailsNaming(ConfigurationException.class, root + "no-such-section\"", fromConfig("no-such-section")::get);
    // A failed actorOf leaves the name free.
    ActorRef plain = troupe.system().actorOf(TestActors.echoActorProps(), "bad-nr");
    assertEquals("bad-nr", plain.path().name());
  }

  @Test
  void badRouterArgumentsInCodeFailAtConstructionNamingTheParameter() {
    assertFailsNaming(IllegalArgumentException.class, "nrOfInstances", () -> new RoundRobinPool(0));
    assertFailsNaming(IllegalArgumentException.class, "nrOfInstances", () -> new BroadcastPool(-1));
    assertFailsNaming(IllegalArgumentException.class, "upperBound", () -> new DefaultResizer(5, 2));
    assertFailsNaming(IllegalArgumentException.class, "lowerBound", () -> new DefaultResizer(-1, 2));
    assertFailsNaming(IllegalArgumentException.class, "backoffThreshold", () -> new DefaultResizer(1, 2).withBackoffThreshold(1.5));
    assertFailsNaming(IllegalArgumentException.class, "messagesPerResize", () -> new DefaultResizer(1, 2).withMessagesPerResize(0));
    assertFailsNaming(IllegalArgumentException.class, "paths", () -> new RoundRobinGroup(List.of()));
    assertFailsNaming(IllegalArgumentException.class, "within", () -> new ScatterGatherFirstCompletedPool(2, Duration.ZERO));
    assertFailsNaming(IllegalArgumentException.class, "interval", () -> new TailChoppingPool(2, Duration.ofSeconds(1), Duration.ofMillis(-1)));
    assertFailsNaming(IllegalArgumentException.class, "virtualNodesFactor", () -> new ConsistentHashingPool(2).withVirtualNodesFactor(0));
    assertFailsNaming(IllegalArgumentException.class, "resizer", () -> new dev.troupe.routing.BalancingPool(2).withResizer(new DefaultResizer(1, 2)));
  }
}
