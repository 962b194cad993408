package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent.MemberRemoved;
import dev.troupe.cluster.sharding.ClusterSharding;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.cluster.singleton.ClusterSingletonManager;
import dev.troupe.cluster.singleton.ClusterSingletonManagerSettings;
import dev.troupe.cluster.singleton.ClusterSingletonProxy;
import dev.troupe.cluster.singleton.ClusterSingletonProxySettings;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sharding and singletons fed by the cluster, end to end: three actor systems in this JVM with the
 * in-memory engine, over remoting on 127.0.0.1 (port 0). Entities spread over the three nodes and
 * answer from wherever they live; a node that leaves gracefully hands its entities over without
 * losing a message; a singleton runs on the oldest node only, moves when it leaves, and a proxy on
 * another node reaches it before and after.
 */
@Timeout(60)
class ClusterShardingSingletonTest {
  private static final Duration CHANGE = ClusterInMemoryTest.CHANGE;
  private static final int IDS = 30;
  /** How long a singleton may take to move on a loaded machine (its hand-over retries included). */
  private static final Duration MOVE = Duration.ofSeconds(30);

  private final ClusterNodes nodes = new ClusterNodes();

  @AfterEach
  void stop() {
    nodes.close();
  }

  /** An entity: answers {@code "<message>@<its node's address>"}. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(String.class, m -> getSender().tell(m + "@" + Cluster.get(getContext().getSystem()).selfAddress(), getSelf()))
          .build();
    }
  }

  /** Messages {@code "<id>:<n>"} go to entity {@code <id>}. */
  static ShardRegion.MessageExtractor extractor() {
    return new ShardRegion.HashCodeMessageExtractor(100) {
      @Override
      public String entityId(Object message) {
        return message instanceof String s && s.indexOf(':') > 0 ? s.substring(0, s.indexOf(':')) : null;
      }
    };
  }

  List<ActorSystem> cluster(String name) {
    List<ActorSystem> s = List.of(nodes.start(name, "in-memory"), nodes.start(name, "in-memory"),
        nodes.start(name, "in-memory"));
    List<TestKit> probes = s.stream().map(ClusterInMemoryTest::probe).toList();
    for (ActorSystem sys : s) {
      Cluster.get(sys).join(s.get(0).address());
    }
    for (TestKit p : probes) {
      ClusterInMemoryTest.ups(p, 3);
    }
    return s;
  }

  /** Sends {@code "<id>:<round>"} for every id through {@code region}; @return entity id -> the node that answered */
  static Map<String, String> round(TestKit probe, ActorRef region, String round) {
    for (int i = 0; i < IDS; i++) {
      region.tell("e" + i + ":" + round, probe.getRef());
    }
    Map<String, String> where = new HashMap<>();
    for (Object o : probe.receiveN(IDS, CHANGE)) {
      String reply = (String) o;
      String id = reply.substring(0, reply.indexOf(':'));
      assertEquals(round, reply.substring(reply.indexOf(':') + 1, reply.indexOf('@')), "reply of round " + round);
      assertTrue(where.put(id, reply.substring(reply.indexOf('@') + 1)) == null, "one answer per message: " + reply);
    }
    return where;
  }

  @Test
  void entitiesSpreadOverTheNodesAnswerFromAnyNodeAndMoveWithoutLossWhenANodeLeaves() {
    List<ActorSystem> s = cluster("sharded");
    ClusterShardingSettings settings = ClusterShardingSettings.create(s.get(0)).withHandOverTimeout(Duration.ofSeconds(5));
    List<ActorRef> regions = s.stream().map(sys -> ClusterSharding.get(sys).start("Echo",
        Props.create(Echo.class, Echo::new), settings, extractor())).toList();
    List<TestKit> probes = s.stream().map(TestKit::new).toList();

    Map<String, String> first = round(probes.get(0), regions.get(0), "0");
    assertEquals(IDS, first.size(), "every entity answered");
    assertEquals(Set.of(s.get(0).address().toString(), s.get(1).address().toString(), s.get(2).address().toString()),
        new HashSet<>(first.values()), "entities live on all three nodes");
    for (int n = 1; n < 3; n++) {
      assertEquals(first, round(probes.get(n), regions.get(n), "from" + n),
          "a message sent from node " + n + " reaches each entity where it lives");
    }

    Address leaver = s.get(2).address();
    Cluster.get(s.get(0)).leave(leaver);
    // messages keep going while the node leaves: none may be lost
    // (bounded in time, not in rounds: the leave now waits for the hand-over, and rounds are fast)
    int r = 0;
    boolean removed = false;
    long deadline = System.nanoTime() + CHANGE.multipliedBy(2).toNanos();
    while (!removed) {
      round(probes.get(0), regions.get(0), "leave" + r++);
      removed = Cluster.get(s.get(0)).state().member(leaver).isEmpty();
      assertTrue(System.nanoTime() < deadline, "the leaving node was removed within " + CHANGE.multipliedBy(2)
          + " (" + r + " rounds)");
    }
    String gone = leaver.toString();
    probes.get(1).awaitCond(CHANGE, () -> !round(probes.get(1), regions.get(1), "probe").containsValue(gone));
    Map<String, String> after = round(probes.get(0), regions.get(0), "after");
    assertFalse(after.containsValue(gone), "no entity answers from the node that left: " + after);
    assertEquals(after, round(probes.get(1), regions.get(1), "after1"), "both remaining nodes agree on the owners");
  }

  /** Where singleton instances started (node address per test name). */
  static final Map<String, List<String>> STARTED = new ConcurrentHashMap<>();

  /** A singleton: records where it starts, answers {@code "who"} with its node. */
  static final class Boss extends AbstractActor {
    private final String test;

    Boss(String test) {
      this.test = test;
    }

    @Override
    public void preStart() {
      STARTED.computeIfAbsent(test, t -> new java.util.concurrent.CopyOnWriteArrayList<>())
          .add(Cluster.get(getContext().getSystem()).selfAddress().toString());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("who", m -> getSender().tell(Cluster.get(getContext().getSystem()).selfAddress().toString(), getSelf()))
          .build();
    }
  }

  @Test
  void aSingletonRunsOnTheOldestNodeOnlyAndMovesWhenItLeavesAProxyReachesItBeforeAndAfter() {
    List<ActorSystem> s = cluster("singleton");
    String test = "moves";
    for (ActorSystem sys : s) {
      sys.actorOf(ClusterSingletonManager.props(Props.create(Boss.class, () -> new Boss(test)), PoisonPill.getInstance(),
          ClusterSingletonManagerSettings.create(sys)), "boss");
    }
    ActorRef proxy = s.get(2).actorOf(ClusterSingletonProxy.props("/user/boss", ClusterSingletonProxySettings.create(s.get(2))),
        "bossProxy");
    TestKit probe = new TestKit(s.get(2));
    proxy.tell("who", probe.getRef());
    String oldest = s.get(0).address().toString();
    assertEquals(oldest, probe.expectMsgClass(CHANGE, String.class), "the singleton runs on the oldest node");
    assertEquals(List.of(oldest), STARTED.get(test), "started once, on the oldest node only");

    TestKit events = ClusterInMemoryTest.probe(s.get(1));
    Cluster.get(s.get(0)).leave(s.get(0).address());
    ClusterInMemoryTest.next(events, MemberRemoved.class, s.get(0).address());
    // the nodes joined at once, so which of the other two is older is the cluster's choice
    String next = Cluster.get(s.get(1)).state().members().stream()
        .filter(m -> !m.address().equals(s.get(0).address()))
        .min(dev.troupe.cluster.Member.ageOrdering()).orElseThrow().address().toString();
    // a message the proxy sent to the old instance as it went may be lost: ask again until the new one answers
    long deadline = System.nanoTime() + MOVE.toNanos();
    String answer = null;
    while (!next.equals(answer)) {
      assertTrue(System.nanoTime() < deadline, "the proxy reached the singleton on " + next + " within " + MOVE
          + "; last answer " + answer);
      proxy.tell("who", probe.getRef());
      Object got = probe.receiveOne(Duration.ofMillis(500));
      answer = got == null ? answer : (String) got;
    }
    assertEquals(List.of(oldest, next), STARTED.get(test), "moved once, to the next oldest node");
  }
}
