package dev.troupe.cluster.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.sharding.ManualShardingTopology;
import dev.troupe.cluster.internal.sharding.ShardingHooks;
import dev.troupe.cluster.internal.sharding.ShardingTopology;
import dev.troupe.testkit.TestKit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The entry point: one region per type and system, found again by name, its topology from the hook. */
class ClusterShardingTest {
  private ActorSystem system;
  private TestKit kit;
  private final UniqueAddress self = new UniqueAddress(Address.remote("sys", "127.0.0.1", 2552), 7);
  private final Map<String, ManualShardingTopology> topologies = new ConcurrentHashMap<>();
  private final Map<String, Optional<String>> roles = new ConcurrentHashMap<>();

  /** Replies to every message with where it runs. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell(getSelf().path().toStringWithoutAddress(), getSelf()))
          .build();
    }
  }

  private static final ShardRegion.MessageExtractor EXTRACTOR = new ShardRegion.HashCodeMessageExtractor(10) {
    @Override
    public String entityId(Object message) {
      return message instanceof String s ? s : null;
    }
  };

  @BeforeEach
  void setUp() {
    system = ActorSystem.create("sys", ConfigFactory.load());
    kit = new TestKit(system);
  }

  @AfterEach
  void tearDown() {
    TestKit.shutdownActorSystem(system);
  }

  private void installHook() {
    ShardingHooks.install(system, new ShardingHooks.TopologySource() {
      @Override
      public UniqueAddress selfAddress() {
        return self;
      }

      @Override
      public ShardingTopology topology(String typeName, Optional<String> role) {
        roles.put(typeName, role);
        return topologies.computeIfAbsent(typeName, t -> new ManualShardingTopology());
      }
    });
  }

  @Test
  void withoutTheClusterStartSaysWhatIsMissing() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ClusterSharding.get(system)
        .start("Counter", Props.create(Echo.class), ClusterShardingSettings.create(system), EXTRACTOR));
    assertTrue(e.getMessage().contains("troupe.actor.provider = cluster"), e.getMessage());
    IllegalArgumentException u = assertThrows(IllegalArgumentException.class,
        () -> ClusterSharding.get(system).shardRegion("Counter"));
    assertTrue(u.getMessage().contains("'Counter' has not been started"), u.getMessage());
  }

  @Test
  void startRunsTheTypesRegionAtItsWellKnownPathOnce() {
    installHook();
    ClusterSharding sharding = ClusterSharding.get(system);
    assertSame(sharding, ClusterSharding.get(system));
    ActorRef region = sharding.start("Counter", Props.create(Echo.class),
        ClusterShardingSettings.create(system).withRole("backend"), EXTRACTOR);
    assertEquals("/user/sharding-Counter", region.path().toStringWithoutAddress());
    assertEquals(ClusterSharding.regionPath("Counter"), region.path().toStringWithoutAddress());
    assertEquals(Optional.of("backend"), roles.get("Counter"), "the topology is asked for the type's role");
    assertSame(region, sharding.start("Counter", Props.create(Echo.class), ClusterShardingSettings.create(system),
        EXTRACTOR));
    assertSame(region, sharding.shardRegion("Counter"));

    topologies.get("Counter").publish(List.of(new ShardingTopology.RegionMember(self, region, false)));
    kit.send(region, "apples");
    String path = kit.expectMsgClass(String.class);
    assertEquals("/user/sharding-Counter/" + EXTRACTOR.shardId("apples") + "/apples", path);
  }

  @Test
  void aProxyRoutesToTheRegionsOfItsType() {
    installHook();
    ClusterSharding sharding = ClusterSharding.get(system);
    ActorRef region = sharding.start("Counter", Props.create(Echo.class), ClusterShardingSettings.create(system),
        EXTRACTOR);
    ActorRef proxy = sharding.startProxy("Counter-proxy", Optional.of("backend"), EXTRACTOR);
    assertEquals(Optional.of("backend"), roles.get("Counter-proxy"));
    // the proxy's topology lists the hosting members (here: this node's region)
    topologies.get("Counter-proxy").publish(List.of(new ShardingTopology.RegionMember(self, region, false)));
    topologies.get("Counter").publish(List.of(new ShardingTopology.RegionMember(self, region, false)));
    kit.send(proxy, "pears");
    assertEquals("/user/sharding-Counter/" + EXTRACTOR.shardId("pears") + "/pears", kit.expectMsgClass(String.class));
    kit.send(proxy, ShardRegion.getShardRegionStateInstance());
    assertEquals(new ShardRegion.CurrentShardRegionState(java.util.Set.of()),
        kit.expectMsgClass(ShardRegion.CurrentShardRegionState.class), "a proxy hosts nothing");
  }
}
