package dev.troupe.cluster.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three cluster members in this JVM (remoting on 127.0.0.1, port 0) on a ZooKeeper server in this
 * JVM (127.0.0.1 only), the engine chosen by name: they form one cluster through a seed, every member
 * Up on every member in one order, and a member that leaves is removed everywhere after {@code
 * MemberLeft} and {@code MemberExited}.
 */
@Timeout(120)
class ZooKeeperClusterTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final List<ActorSystem> systems = new ArrayList<>();
  private TestingServer server;

  @AfterEach
  void stop() throws Exception {
    systems.forEach(ActorSystem::terminate);
    systems.forEach(TestKit::shutdownActorSystem);
    if (server != null) {
      server.close();
    }
  }

  private ActorSystem member(String connect) {
    ActorSystem s = ActorSystem.create("zk-cluster", ConfigFactory.parseString(
        "troupe.actor.provider = cluster\n"
            + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
            + "troupe.remote.canonical.port = 0\n"
            + "troupe.cluster.membership.provider = zookeeper\n"
            + "troupe.cluster.zookeeper.connect = \"" + connect + "\"\n"
            + "troupe.cluster.zookeeper.session-timeout = 4s\n"
            + "troupe.cluster.seed-node-timeout = 300ms\n"
            + "troupe.cluster.leave-ack-timeout = 2s\n"
            + "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n"
            + "troupe.test.shutdown-timeout = 30s\n").withFallback(ConfigFactory.load()));
    systems.add(s);
    return s;
  }

  private static Address up(TestKit events) {
    ClusterEvent.MemberUp up = (ClusterEvent.MemberUp) events.fishForMessage(WAIT, "MemberUp",
        e -> e instanceof ClusterEvent.MemberUp);
    return up.member().address();
  }

  @Test
  void membersFormOneClusterOnTheEnsembleAndALeavingMemberIsRemovedEverywhere() throws Exception {
    server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 500, -1,
        Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1"), true);
    ActorSystem a = member(server.getConnectString());
    ActorSystem b = member(server.getConnectString());
    ActorSystem c = member(server.getConnectString());
    TestKit events = new TestKit(a);
    Cluster.get(a).subscribe(events.getRef(), ClusterEvent.initialStateAsEvents(), ClusterEvent.MemberEvent.class);
    List<Address> order = new ArrayList<>();
    for (ActorSystem s : List.of(a, b, c)) {
      Cluster.get(s).joinSeedNodes(List.of(a.address())); // the first seed founds the cluster
      order.add(up(events));
    }
    assertEquals(List.of(a.address(), b.address(), c.address()), order, "Up in the order they joined");
    for (ActorSystem s : List.of(b, c)) {
      events.awaitCond(WAIT, Duration.ofMillis(20), "three Up members on " + s.address(), () ->
          Cluster.get(s).state().members().stream().filter(m -> m.status() == MemberStatus.UP).count() == 3);
      assertEquals(List.of(a.address(), b.address(), c.address()),
          Cluster.get(s).state().members().stream().map(m -> m.address()).toList(), "one order on every member");
    }

    Cluster.get(c).leave(c.address());
    events.fishForMessage(WAIT, "MemberLeft of c",
        e -> e instanceof ClusterEvent.MemberLeft l && l.member().address().equals(c.address()));
    events.fishForMessage(WAIT, "MemberExited of c",
        e -> e instanceof ClusterEvent.MemberExited x && x.member().address().equals(c.address()));
    ClusterEvent.MemberRemoved removed = (ClusterEvent.MemberRemoved) events.fishForMessage(WAIT, "MemberRemoved of c",
        e -> e instanceof ClusterEvent.MemberRemoved r && r.member().address().equals(c.address()));
    assertEquals(MemberStatus.EXITING, removed.previousStatus());
    events.awaitCond(WAIT, Duration.ofMillis(20), "b sees two members",
        () -> Cluster.get(b).state().members().size() == 2);
  }
}
