package dev.troupe.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.sharding.ClusterSharding;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.sharding.ShardRegion;
import io.micrometer.core.instrument.FunctionCounter;
import dev.troupe.testkit.TestKit;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The cluster's meters on a two-node cluster (the in-memory engine, remoting on 127.0.0.1). */
@Timeout(90)
class ClusterMetricsTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private final List<ActorSystem> systems = new ArrayList<>();

  private ActorSystem node(String provider) {
    ActorSystem s = ActorSystem.create("metrics", ConfigFactory.parseString(
        "troupe.actor.provider = " + provider + "\n"
            + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
            + "troupe.remote.canonical.port = 0\n"
            + "troupe.cluster.membership.provider = in-memory\n"
            + "troupe.cluster.seed-node-timeout = 300ms\n"
            + "troupe.cluster.leave-ack-timeout = 2s\n"
            + "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n"));
    systems.add(s);
    return s;
  }

  @AfterEach
  void stop() {
    for (ActorSystem s : systems) {
      s.terminate();
    }
    for (ActorSystem s : systems) {
      TestKit.shutdownActorSystem(s, Duration.ofSeconds(30), true);
    }
  }

  private static double gauge(SimpleMeterRegistry r, String name, String... tags) {
    Gauge g = r.find(name).tags(tags).gauge();
    assertNotNull(g, name + " " + List.of(tags));
    return g.value();
  }

  @Test
  void membersByStatusFollowATwoNodeCluster() {
    ActorSystem first = node("cluster");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new TroupeMetrics(first).bindTo(registry);
    for (String status : List.of("joining", "up", "leaving", "exiting", "down")) {
      assertEquals(0, gauge(registry, "troupe.cluster.members", "status", status),
          "members " + status + " before joining");
    }
    assertEquals(0, gauge(registry, "troupe.cluster.unreachable"), "unreachable members");

    Cluster.get(first).join(first.address()); // founds the cluster
    ActorSystem second = node("cluster");
    Cluster.get(second).join(first.address());
    TestKit kit = new TestKit(first);
    kit.awaitCond(WAIT, Duration.ofMillis(20), "two members up in the gauge",
        () -> gauge(registry, "troupe.cluster.members", "status", "up") == 2);
    assertEquals(0, gauge(registry, "troupe.cluster.members", "status", "joining"), "joining");
    assertEquals(0, gauge(registry, "troupe.cluster.unreachable"), "unreachable members");
    assertEquals(first.name(),
        registry.find("troupe.cluster.members").gauge().getId().getTag("system"), "system tag");
  }

  /** Answers each message with itself. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell(m, getSelf())).build();
    }
  }

  private static final int SHARDS = 40;
  private static final ShardRegion.MessageExtractor EXTRACTOR = new ShardRegion.HashCodeMessageExtractor(SHARDS) {
    @Override
    public String entityId(Object message) {
      return (String) message;
    }
  };

  private static ActorRef startRegion(ActorSystem s) {
    return ClusterSharding.get(s).start("Echo", Props.create(Echo.class, Echo::new),
        ClusterShardingSettings.create(s), EXTRACTOR);
  }

  @Test
  void shardsThatMoveToAJoiningMemberAreCountedAsHandOvers() {
    ActorSystem first = node("cluster");
    SimpleMeterRegistry onFirst = new SimpleMeterRegistry();
    new TroupeMetrics(first).bindTo(onFirst);
    FunctionCounter handOvers = onFirst.find("troupe.cluster.sharding.handovers").functionCounter();
    assertNotNull(handOvers, "troupe.cluster.sharding.handovers");
    Cluster.get(first).join(first.address());
    TestKit kit = new TestKit(first);
    kit.awaitCond(WAIT, Duration.ofMillis(20), "the first member up",
        () -> Cluster.get(first).selfMember().status() == MemberStatus.UP);
    ActorRef region = startRegion(first);
    // one entity in each of the shards: all hosted by the only member
    List<String> ids = new ArrayList<>();
    for (int i = 0; ids.size() < SHARDS * 3; i++) {
      ids.add("e" + i);
    }
    for (String id : ids) {
      region.tell(id, kit.getRef());
    }
    for (int i = 0; i < ids.size(); i++) {
      kit.expectMsgClass(WAIT, String.class);
    }
    assertEquals(0, handOvers.count(), "hand-overs while alone");

    // a second member with a region of the type: about half the shards move there (rendezvous
    // hashing), each handed over by the first; none moving at all would take 40 coin flips going
    // one way
    ActorSystem second = node("cluster");
    startRegion(second);
    Cluster.get(second).join(first.address());
    kit.awaitCond(WAIT, Duration.ofMillis(20), "shards handed over to the second member",
        () -> handOvers.count() > 0);
    assertTrue(handOvers.count() < SHARDS, "not every shard moves: " + handOvers.count());
  }

  @Test
  void aSystemThatIsNoClusterNodeHasNoClusterMeters() {
    ActorSystem remote = node("remote");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new TroupeMetrics(remote).bindTo(registry);
    assertNull(registry.find("troupe.cluster.members").meter(), "cluster meters of a remote-only system");
  }
}
