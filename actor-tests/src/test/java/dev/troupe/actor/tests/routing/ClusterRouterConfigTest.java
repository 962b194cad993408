package dev.troupe.actor.tests.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.routing.FromConfig;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code cluster} part of a deployment section, checked when the router is created: a
 * malformed value names its full key, a combination that cannot work (a resizer, {@code
 * target.nodes}, a balancing pool, a group path with an address) is refused naming both keys, and a
 * well-formed cluster-aware router on a system without a cluster names the key and the artifact
 * that would serve it. A section with {@code cluster.enabled = off} is an ordinary router.
 */
class ClusterRouterConfigTest {
  @RegisterExtension
  static final ActorSystemExtension troupe =
      ActorSystemExtension.perClass(
          RoutingFixtures.CONFIG
              + """
              troupe.actor.deployment {
                /fine { router = round-robin-pool, cluster { enabled = on, max-nr-of-instances-per-node = 2, use-roles = ["worker"] }, total-instances = 10 }
                /fine-group { router = round-robin-group, routees.paths = ["/user/worker"], cluster.enabled = on }
                /in-code { cluster.enabled = on }
                /off { router = round-robin-pool, nr-of-instances = 3, cluster { enabled = off, max-nr-of-instances-per-node = 0 } }
                /bad-enabled { router = round-robin-pool, cluster.enabled = sometimes }
                /bad-per-node { router = round-robin-pool, cluster { enabled = on, max-nr-of-instances-per-node = two } }
                /zero-per-node { router = round-robin-pool, cluster { enabled = on, max-nr-of-instances-per-node = 0 } }
                /bad-local { router = round-robin-pool, cluster { enabled = on, allow-local-routees = maybe } }
                /bad-roles { router = round-robin-pool, cluster { enabled = on, use-roles = { worker = on } } }
                /blank-role { router = round-robin-pool, cluster { enabled = on, use-roles = [" "] } }
                /bad-total { router = round-robin-pool, cluster.enabled = on, total-instances = lots }
                /zero-total { router = round-robin-pool, cluster.enabled = on, total-instances = 0 }
                /with-resizer { router = round-robin-pool, cluster.enabled = on, resizer.enabled = on }
                /with-targets { router = round-robin-pool, cluster.enabled = on, target.nodes = ["troupe://sys@127.0.0.1:2553"] }
                /balancing { router = balancing-pool, cluster.enabled = on }
                /addressed-group { router = round-robin-group, routees.paths = ["troupe://sys@127.0.0.1:2553/user/w"], cluster.enabled = on }
              }
              """);

  private static void assertFailsNaming(String name, String... fragments) {
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> troupe.system().actorOf(TestActors.echoActorProps().withRouter(FromConfig.getInstance()), name));
    for (String f : fragments) {
      assertTrue(e.getMessage().contains(f), "message '" + e.getMessage() + "' should name " + f);
    }
  }

  private static String key(String section, String sub) {
    return "troupe.actor.deployment.\"/" + section + "\"." + sub;
  }

  @Test
  void aClusterAwareRouterOnASystemWithoutAClusterNamesTheKeyAndTheArtifact() {
    assertFailsNaming("fine", key("fine", "cluster.enabled"), "troupe-cluster", "troupe.actor.provider = cluster");
    assertFailsNaming("fine-group", key("fine-group", "cluster.enabled"), "troupe-cluster");
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> troupe.system().actorOf(TestActors.echoActorProps().withRouter(new RoundRobinPool(2)), "in-code"));
    assertTrue(e.getMessage().contains(key("in-code", "cluster.enabled")), "a router built in code takes the section's cluster part too: " + e.getMessage());
  }

  @Test
  void malformedClusterValuesNameTheirFullKey() {
    assertFailsNaming("bad-enabled", key("bad-enabled", "cluster.enabled"));
    assertFailsNaming("bad-per-node", key("bad-per-node", "cluster.max-nr-of-instances-per-node"));
    assertFailsNaming("zero-per-node", key("zero-per-node", "cluster.max-nr-of-instances-per-node"), "at least 1");
    assertFailsNaming("bad-local", key("bad-local", "cluster.allow-local-routees"));
    assertFailsNaming("bad-roles", key("bad-roles", "cluster.use-roles"));
    assertFailsNaming("blank-role", key("blank-role", "cluster.use-roles"), "blank");
    assertFailsNaming("bad-total", key("bad-total", "total-instances"));
    assertFailsNaming("zero-total", key("zero-total", "total-instances"), "at least 1");
  }

  @Test
  void combinationsThatCannotWorkAreRefusedNamingBothKeys() {
    assertFailsNaming("with-resizer", key("with-resizer", "cluster.enabled"), key("with-resizer", "resizer"));
    assertFailsNaming("with-targets", key("with-targets", "cluster.enabled"), key("with-targets", "target.nodes"));
    assertFailsNaming("balancing", key("balancing", "cluster.enabled"), key("balancing", "router"));
    assertFailsNaming("addressed-group", key("addressed-group", "routees.paths"), "without an address");
  }

  @Test
  void aSectionWithTheClusterOffIsAnOrdinaryRouterAndItsClusterValuesAreNotRead() {
    ActorRef router = troupe.system().actorOf(TestActors.echoActorProps().withRouter(FromConfig.getInstance()), "off");
    assertEquals(3, RoutingFixtures.routeeRefs(new dev.troupe.testkit.TestProbe(troupe.system()), router).size());
  }
}
