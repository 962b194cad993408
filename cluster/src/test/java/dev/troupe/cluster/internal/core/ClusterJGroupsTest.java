package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent.MemberExited;
import dev.troupe.cluster.ClusterEvent.MemberLeft;
import dev.troupe.cluster.ClusterEvent.MemberRemoved;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.testkit.TestKit;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cluster wired to the JGroups engine: three actor systems in this JVM on 127.0.0.1 (remoting
 * and the engine on ephemeral ports) form a cluster through their seeds, learning the seeds'
 * engine endpoints over remoting; then one terminates, leaving gracefully.
 */
@Timeout(60)
class ClusterJGroupsTest {
  private final ClusterNodes nodes = new ClusterNodes();

  @AfterEach
  void stop() {
    nodes.close();
  }

  @Test
  void threeSystemsFormOneClusterThroughTheirSeedsAndOneLeavesGracefully() {
    String name = "jgroupsformation";
    // Nothing here is about failure detection: the defaults' pauses, so that a machine whose cores
    // are busy elsewhere cannot make a slow heartbeat (or a late tick) look like a failure.
    String patient = "troupe.cluster.failure-detector.heartbeat-interval = 1s\n"
        + "troupe.cluster.failure-detector.acceptable-heartbeat-pause = 5s\n"
        + "troupe.cluster.downing.stable-after = 20s\n";
    List<ActorSystem> s = List.of(nodes.start(name, "jgroups", patient), nodes.start(name, "jgroups", patient),
        nodes.start(name, "jgroups", patient));
    List<Address> seeds = s.stream().map(ActorSystem::address).toList();
    List<TestKit> probes = s.stream().map(ClusterInMemoryTest::probe).toList();
    for (ActorSystem sys : s) {
      Cluster.get(sys).joinSeedNodes(seeds);
    }

    List<Address> reference = ClusterInMemoryTest.ups(probes.get(0), 3);
    assertEquals(seeds.get(0), reference.get(0), "the first seed founds the cluster and is Up first");
    for (int i = 1; i < 3; i++) {
      assertEquals(reference, ClusterInMemoryTest.ups(probes.get(i), 3), "MemberUp events in the same order on node " + i);
    }
    for (ActorSystem sys : s) {
      List<Member> members = Cluster.get(sys).state().members();
      assertEquals(reference, members.stream().map(Member::address).toList(), "member order of " + sys.address());
      assertTrue(members.stream().allMatch(m -> m.status() == MemberStatus.UP), members.toString());
    }

    // a graceful leave through the JGroups engine: terminate() leaves in coordinated shutdown
    ActorSystem leaver = s.get(2);
    Address gone = leaver.address();
    leaver.terminate();
    for (TestKit p : probes.subList(0, 2)) {
      ClusterInMemoryTest.next(p, MemberLeft.class, gone);
      ClusterInMemoryTest.next(p, MemberExited.class, gone);
      assertEquals(MemberStatus.EXITING, ClusterInMemoryTest.next(p, MemberRemoved.class, gone).previousStatus());
    }
    new TestKit(s.get(0)).awaitResult(ClusterInMemoryTest.CHANGE, leaver.getWhenTerminated());
  }
}
