package dev.troupe.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.Cluster;
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

  @Test
  void aSystemThatIsNoClusterNodeHasNoClusterMeters() {
    ActorSystem remote = node("remote");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new TroupeMetrics(remote).bindTo(registry);
    assertNull(registry.find("troupe.cluster.members").meter(), "cluster meters of a remote-only system");
  }
}
