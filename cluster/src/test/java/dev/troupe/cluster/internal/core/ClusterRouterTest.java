package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.CoordinatedShutdown;
import dev.troupe.actor.Done;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.internal.inmemory.InMemoryCluster;
import dev.troupe.cluster.routing.ClusterRouterGroup;
import dev.troupe.cluster.routing.ClusterRouterGroupSettings;
import dev.troupe.cluster.routing.ClusterRouterPool;
import dev.troupe.cluster.routing.ClusterRouterPoolSettings;
import dev.troupe.pattern.Patterns;
import dev.troupe.routing.BalancingPool;
import dev.troupe.routing.DefaultResizer;
import dev.troupe.routing.FromConfig;
import dev.troupe.routing.GetRoutees;
import dev.troupe.routing.RoundRobinGroup;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.routing.Routee;
import dev.troupe.routing.Routees;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Cluster-aware routers over nodes of the in-memory engine in this JVM (remoting on 127.0.0.1, port
 * 0): a pool deploys its routees onto the members with the role as they come Up, at most {@code
 * max-nr-of-instances-per-node} on each and {@code total-instances} in all, and drops those of a
 * member that leaves or crashes; a group looks its path up on each such member. Where routees live
 * is counted by the node each routee says it runs on.
 */
@Timeout(120)
class ClusterRouterTest {
  private static final Duration CHANGE = ClusterInMemoryTest.CHANGE;

  private final ClusterNodes nodes = new ClusterNodes();

  @AfterEach
  void stop() {
    nodes.close();
  }

  /** A routee: answers {@code "where"} with the address of the node it runs on. */
  public static final class Worker extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("where", m -> getSender().tell(getContext().getSystem().address().toString(), getSelf()))
          .build();
    }
  }

  /** Accepts remote deployment of {@link Worker}, so that a node lacking only the role could take routees. */
  private static final String ACCEPTING =
      "troupe.remote.deployment { enabled = on, allowed-classes = [\"" + Worker.class.getName() + "\"] }\n";

  private static String roles(String role) {
    return "troupe.cluster.roles = [\"" + role + "\"]\n";
  }

  /** Starts a node of {@code name} with {@code role} that joins {@code seed} (or founds it when null). */
  private ActorSystem node(String name, String role, ActorSystem seed, String extra) {
    ActorSystem s = nodes.start(name, "in-memory", ACCEPTING + roles(role) + extra);
    Cluster.get(s).join(seed == null ? s.address() : seed.address());
    new TestKit(s).awaitCond(CHANGE, Duration.ofMillis(20), s.address() + " is Up",
        () -> Cluster.get(s).selfMember().status() == MemberStatus.UP);
    return s;
  }

  /**
   * Asks every routee where it runs.
   *
   * @return node address -> routees there, or null when a routee did not answer
   */
  private static Map<String, Integer> placement(ActorSystem system, ActorRef router) {
    Routees routees = (Routees) Patterns.ask(router, GetRoutees.getInstance(), Duration.ofSeconds(3))
        .toCompletableFuture().join();
    TestProbe probe = new TestProbe(system);
    try {
      for (Routee r : routees.routees()) {
        r.send("where", probe.getRef());
      }
      Map<String, Integer> where = new TreeMap<>();
      for (Object o : probe.receiveN(routees.routees().size(), Duration.ofSeconds(3))) {
        where.merge((String) o, 1, Integer::sum);
      }
      return where;
    } catch (AssertionError e) {
      return null; // a routee did not answer: not settled yet
    } finally {
      system.stop(probe.getRef());
    }
  }

  private static void awaitPlacement(ActorSystem system, ActorRef router, Map<String, Integer> expected, String what) {
    AtomicReference<Map<String, Integer>> last = new AtomicReference<>();
    try {
      new TestKit(system).awaitCond(CHANGE, Duration.ofMillis(100), what, () -> {
        last.set(placement(system, router));
        return expected.equals(last.get());
      });
    } catch (AssertionError e) {
      fail(what + ": expected routees " + expected + ", last seen " + last.get(), e);
    }
  }

  private static Map<String, Integer> on(Object... addressAndCount) {
    Map<String, Integer> m = new TreeMap<>();
    for (int i = 0; i < addressAndCount.length; i += 2) {
      m.put(addressAndCount[i].toString(), (Integer) addressAndCount[i + 1]);
    }
    return m;
  }

  @Test
  void aPoolKeepsItsRouteesOnTheWorkerMembersWithinItsCapsAndDropsThoseOfMembersThatGo() {
    String name = "pooled";
    ActorSystem a = node(name, "frontend", null, "troupe.actor.deployment.\"/workers\" { router = round-robin-pool,"
        + " cluster { enabled = on, max-nr-of-instances-per-node = 2, allow-local-routees = on,"
        + " use-roles = [\"worker\"] }, total-instances = 5 }\n");
    ActorRef router = a.actorOf(Props.create(Worker.class).withRouter(FromConfig.getInstance()), "workers");
    assertEquals(Map.of(), placement(a, router), "no routee before a worker is Up (this node is no worker)");

    ActorSystem b = node(name, "worker", a, "");
    awaitPlacement(a, router, on(b.address(), 2), "two routees on the first worker");

    ActorSystem e = node(name, "frontend", a, "");
    ActorSystem c = node(name, "worker", a, "");
    awaitPlacement(a, router, on(b.address(), 2, c.address(), 2),
        "two on each worker, none on the frontend node " + e.address());

    ActorSystem d = node(name, "worker", a, "");
    awaitPlacement(a, router, on(b.address(), 2, c.address(), 2, d.address(), 1), "five in all (total-instances)");

    d.terminate(); // leaves gracefully
    awaitPlacement(a, router, on(b.address(), 2, c.address(), 2), "the routee of the member that left is dropped");

    InMemoryCluster.crash(name, Cluster.get(c).selfUniqueAddress());
    awaitPlacement(a, router, on(b.address(), 2), "the routees of the crashed member are dropped");

    TestKit client = new TestKit(a);
    for (int i = 0; i < 20; i++) {
      router.tell("where", client.getRef());
    }
    for (Object o : client.receiveN(20, CHANGE)) {
      assertEquals(b.address().toString(), o, "every message goes to the member that is left");
    }
  }

  @Test
  void aGroupLooksItsPathUpOnceOnEachWorkerMemberAsMembersComeAndGo() {
    String name = "grouped";
    ActorSystem a = node(name, "frontend", null, "troupe.actor.deployment.\"/workers\" { router = round-robin-group,"
        + " routees.paths = [\"/user/worker\"], cluster { enabled = on, max-nr-of-instances-per-node = 3,"
        + " allow-local-routees = on, use-roles = [\"worker\"] } }\n");
    a.actorOf(Props.create(Worker.class), "worker");
    ActorRef router = a.actorOf(FromConfig.getInstance().props(Props.create(Worker.class)), "workers");

    ActorSystem b = node(name, "worker", a, "");
    b.actorOf(Props.create(Worker.class), "worker");
    ActorSystem e = node(name, "frontend", a, "");
    e.actorOf(Props.create(Worker.class), "worker");
    ActorSystem c = node(name, "worker", a, "");
    c.actorOf(Props.create(Worker.class), "worker");
    awaitPlacement(a, router, on(b.address(), 1, c.address(), 1),
        "the path once on each worker (not max-nr-of-instances-per-node times), none on the frontends");

    b.terminate();
    awaitPlacement(a, router, on(c.address(), 1), "the member that left is dropped");

    ActorSystem f = node(name, "worker", a, "");
    f.actorOf(Props.create(Worker.class), "worker");
    awaitPlacement(a, router, on(c.address(), 1, f.address(), 1), "a new worker member is added");
  }

  @Test
  void localRouteesFollowAllowLocalRouteesAndAnUnreachableMemberLosesItsRouteesUntilItIsReachableAgain() {
    String name = "reachability";
    String off = "troupe.cluster.downing.strategy = off\n"; // an unreachable member stays a member
    ActorSystem a = node(name, "worker", null, off
        + "troupe.actor.deployment.\"/local\" { router = round-robin-pool, cluster { enabled = on,"
        + " max-nr-of-instances-per-node = 2, allow-local-routees = on } }\n"
        + "troupe.actor.deployment.\"/remote-only\" { router = round-robin-pool, cluster { enabled = on,"
        + " max-nr-of-instances-per-node = 2, allow-local-routees = off } }\n");
    ActorRef local = a.actorOf(Props.create(Worker.class).withRouter(FromConfig.getInstance()), "local");
    ActorRef remoteOnly = a.actorOf(Props.create(Worker.class).withRouter(FromConfig.getInstance()), "remote-only");
    assertEquals(on(a.address(), 2), placement(a, local), "allow-local-routees = on: routees here at once");
    assertEquals(Map.of(), placement(a, remoteOnly), "allow-local-routees = off: none here");

    ActorSystem b = node(name, "worker", a, off);
    awaitPlacement(a, local, on(a.address(), 2, b.address(), 2), "routees on both members");
    awaitPlacement(a, remoteOnly, on(b.address(), 2), "routees on the other member only");

    InMemoryCluster.suspect(name, Cluster.get(b).selfUniqueAddress());
    awaitPlacement(a, local, on(a.address(), 2), "the unreachable member's routees are dropped");
    awaitPlacement(a, remoteOnly, Map.of(), "the unreachable member's routees are dropped, none moves here");

    InMemoryCluster.unsuspect(name, Cluster.get(b).selfUniqueAddress());
    awaitPlacement(a, local, on(a.address(), 2, b.address(), 2), "reachable again: routees there again");
    awaitPlacement(a, remoteOnly, on(b.address(), 2), "reachable again: routees there again");
  }

  /**
   * A node that leaves while its pool's routees live on another member still terminates when that
   * member has quarantined it (having seen it removed) before the node stops its routees: the
   * member drops the routees' death notices, so the node counts the members as gone once it is out
   * of the cluster instead of waiting for those notices forever. The runtime does not order the
   * member's quarantine and the node's stopping of its routees; the test forces the order that
   * used to leave the node's {@code /user} stopping for ever.
   */
  @Test
  void aLeavingNodeWhoseRouteesLiveOnAMemberThatQuarantinedItStillTerminates() {
    String name = "teardown";
    ActorSystem a = node(name, "frontend", null, "troupe.actor.deployment.\"/workers\" { router = round-robin-pool,"
        + " cluster { enabled = on, max-nr-of-instances-per-node = 2, allow-local-routees = off } }\n");
    ActorRef router = a.actorOf(Props.create(Worker.class).withRouter(FromConfig.getInstance()), "workers");
    ActorSystem b = node(name, "worker", a, "");
    awaitPlacement(a, router, on(b.address(), 2), "two routees on the other member");

    // a's routees stop (with /user, in actor-system-terminate) only after b has seen a removed
    Address leaving = a.address();
    CoordinatedShutdown.get(a).addTask("before-actor-system-terminate", "await-removal-on-the-member",
        () -> CompletableFuture.supplyAsync(() -> {
          new TestKit(b).awaitCond(CHANGE, Duration.ofMillis(20), leaving + " is removed on " + b.address(),
              () -> Cluster.get(b).state().members().stream().noneMatch(m -> m.address().equals(leaving)));
          return Done.getInstance();
        }));

    // the leave's phases take a moment here (every ack comes, nothing to hand over): well within 10 s
    TestKit.shutdownActorSystem(a, Duration.ofSeconds(10), true);
  }

  @Test
  void aPoolAndAGroupBuiltInCodeSpreadOverTheMembersTheirSettingsAllow() {
    String name = "in-code";
    ActorSystem a = node(name, "frontend", null, "");
    a.actorOf(Props.create(Worker.class), "worker");
    ActorRef pool = a.actorOf(new ClusterRouterPool(new RoundRobinPool(1),
        new ClusterRouterPoolSettings(3, 2, true, Set.of("worker"))).props(Props.create(Worker.class)), "pool");
    List<String> paths = List.of("/user/worker");
    ActorRef group = a.actorOf(new ClusterRouterGroup(new RoundRobinGroup(paths),
        new ClusterRouterGroupSettings(10, paths, true, Set.of("worker"))).props(), "group");
    assertEquals(Map.of(), placement(a, pool), "no routee before a worker is Up (this node is no worker)");

    ActorSystem b = node(name, "worker", a, "");
    b.actorOf(Props.create(Worker.class), "worker");
    awaitPlacement(a, pool, on(b.address(), 2), "maxInstancesPerNode on the first worker");
    ActorSystem c = node(name, "worker", a, "");
    c.actorOf(Props.create(Worker.class), "worker");
    awaitPlacement(a, pool, on(b.address(), 2, c.address(), 1), "totalInstances in all");
    awaitPlacement(a, group, on(b.address(), 1, c.address(), 1), "the path once on each worker, none on the frontend");
  }

  @Test
  void aSectionsClusterPartWinsOverTheCodesAndWhatCannotWorkIsRefusedWhereItIsMade() {
    String name = "in-code-section";
    ActorSystem a = node(name, "worker", null, "troupe.actor.deployment.\"/configured\" { cluster { enabled = on,"
        + " max-nr-of-instances-per-node = 1 } }\n");
    ActorRef configured = a.actorOf(new ClusterRouterPool(new RoundRobinPool(1),
        new ClusterRouterPoolSettings(10, 3, true, Set.of())).props(Props.create(Worker.class)), "configured");
    awaitPlacement(a, configured, on(a.address(), 1), "the section's max-nr-of-instances-per-node, not the code's 3");

    ClusterRouterPoolSettings fine = new ClusterRouterPoolSettings(1, 1, true, Set.of());
    assertThrows(IllegalArgumentException.class,
        () -> new ClusterRouterPool(new RoundRobinPool(1).withResizer(new DefaultResizer(1, 2)), fine));
    assertThrows(IllegalArgumentException.class, () -> new ClusterRouterPool(new BalancingPool(2), fine));
    assertThrows(IllegalArgumentException.class, () -> new ClusterRouterPoolSettings(0, 1, true, Set.of()));
    assertThrows(IllegalArgumentException.class, () -> new ClusterRouterPoolSettings(1, 0, true, Set.of()));
    assertThrows(IllegalArgumentException.class, () -> new ClusterRouterPoolSettings(1, 1, true, Set.of(" ")));
    assertThrows(IllegalArgumentException.class,
        () -> new ClusterRouterGroupSettings(1, List.of("troupe://sys@127.0.0.1:2552/user/w"), true, Set.of()));
    assertThrows(IllegalArgumentException.class, () -> new ClusterRouterGroupSettings(1, List.of(), true, Set.of()));
    IllegalArgumentException mismatch = assertThrows(IllegalArgumentException.class, () -> new ClusterRouterGroup(
        new RoundRobinGroup(List.of("/user/a")), new ClusterRouterGroupSettings(1, List.of("/user/b"), true, Set.of())));
    assertTrue(mismatch.getMessage().contains("/user/b"), mismatch.getMessage());

    ActorSystem plain = ActorSystem.create("plain", ConfigFactory.parseString("troupe.actor.provider = local"));
    try {
      ConfigurationException e = assertThrows(ConfigurationException.class,
          () -> plain.actorOf(new ClusterRouterPool(new RoundRobinPool(1), fine).props(Props.create(Worker.class)), "w"));
      assertTrue(e.getMessage().contains("built in code for /user/w") && e.getMessage().contains("troupe-cluster"),
          e.getMessage());
    } finally {
      TestKit.shutdownActorSystem(plain);
    }
  }
}
