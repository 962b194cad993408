package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Whole cluster nodes ({@link ClusterChildNode}: actor system, remoting, the JGroups engine) in
 * three child JVMs on 127.0.0.1; one is killed ({@code kill -9}) or frozen ({@code kill -STOP},
 * later {@code kill -CONT}). Each test forms its own cluster and kills every child afterwards.
 */
@Timeout(90)
class ClusterChildJvmTest {
  /** Three JVMs starting at once on two busy cores. */
  private static final Duration START = Duration.ofSeconds(40);

  private final List<ChildNode> children = new ArrayList<>();

  @AfterEach
  void killChildren() throws InterruptedException {
    for (ChildNode c : children) {
      c.kill(); // SIGKILL ends a stopped process too
    }
  }

  private static List<String> settings(Duration heartbeat, Duration pause, Duration stableAfter) {
    return List.of(
        "troupe.cluster.seed-node-timeout = 300ms",
        "troupe.cluster.jgroups.join-timeout = 1s",
        "troupe.cluster.failure-detector.heartbeat-interval = " + heartbeat.toMillis() + "ms",
        "troupe.cluster.failure-detector.acceptable-heartbeat-pause = " + pause.toMillis() + "ms",
        "troupe.cluster.downing.stable-after = " + stableAfter.toMillis() + "ms");
  }

  /** Starts three nodes (the first founds, the others join through it) and waits until all are Up everywhere. */
  private List<String> formThree(String system, List<String> settings) throws Exception {
    List<String> founder = new ArrayList<>(List.of(system, "found", "--watch"));
    founder.addAll(settings);
    ChildNode a = ChildNode.start(founder.toArray(String[]::new));
    children.add(a);
    String seed = a.address(START);
    for (int i = 0; i < 2; i++) {
      List<String> joiner = new ArrayList<>(List.of(system, seed, "--watch"));
      joiner.addAll(settings);
      children.add(ChildNode.start(joiner.toArray(String[]::new)));
    }
    List<String> addresses = new ArrayList<>();
    for (ChildNode c : children) {
      addresses.add(c.address(START));
    }
    for (ChildNode c : children) {
      for (String member : addresses) {
        c.awaitEvent(0, "MemberUp", member, START);
      }
    }
    return addresses;
  }

  @Test
  void aKilledNodeIsRemovedAtOnceInOrderAndItsWatchersAreTold() throws Exception {
    // stable-after far longer than the bound below: only a sure death removes the node in time
    Duration stableAfter = Duration.ofSeconds(20);
    List<String> nodes = formThree("killed", settings(Duration.ofSeconds(1), Duration.ofSeconds(5), stableAfter));
    String victim = nodes.get(2);
    ChildNode a = children.get(0);
    ChildNode b = children.get(1);
    a.await(0, ClusterChildNode.WATCHING, p -> p.startsWith(victim + "/user/target"), START);

    long killedAt = System.currentTimeMillis();
    children.get(2).kill();

    Duration bound = stableAfter.dividedBy(2);
    List<String> after = new ArrayList<>();
    for (ChildNode survivor : List.of(a, b)) {
      int unreachable = survivor.awaitEvent(0, "UnreachableMember", victim, bound);
      int downed = survivor.awaitEvent(unreachable, "MemberDowned", victim, bound);
      int removed = survivor.awaitEvent(downed, "MemberRemoved", victim, bound);
      assertTrue(survivor.rest(removed, ClusterChildNode.EVENT).endsWith(" DOWN"), survivor.rest(removed, ClusterChildNode.EVENT));
      long took = survivor.eventTime(removed) - killedAt;
      assertTrue(took < bound.toMillis(), "removed " + took + " ms after the kill, stable-after is " + stableAfter);
      int members = survivor.await(removed, ClusterChildNode.MEMBERS, m -> true, bound);
      after.add(survivor.rest(members, ClusterChildNode.MEMBERS));
      System.out.println("a killed JVM was removed by " + survivor.process().pid() + " " + took + " ms after the kill");
    }
    assertEquals(nodes.get(0) + ":UP," + nodes.get(1) + ":UP", after.get(0), "the survivors' members");
    assertEquals(after.get(0), after.get(1), "the survivors agree");
    a.await(0, ClusterChildNode.TERMINATED, t -> t.equals(victim + "/user/target addressTerminated=true"), bound);
  }

  @Test
  void aFrozenNodeIsRemovedOnlyAfterThePauseAndStableAfterAndShutsItselfDownWhenItResumes() throws Exception {
    Assumptions.assumeTrue(ChildNode.killCommandAvailable(), "needs the kill command to send SIGSTOP and SIGCONT");
    Duration heartbeat = Duration.ofMillis(500);
    Duration pause = Duration.ofSeconds(3);
    Duration stableAfter = Duration.ofSeconds(4);
    List<String> nodes = formThree("frozen", settings(heartbeat, pause, stableAfter));
    String victim = nodes.get(2);
    ChildNode frozen = children.get(2);

    long stoppedAt = System.currentTimeMillis();
    frozen.signal("STOP");
    Duration bound = pause.plus(stableAfter).plusSeconds(15);
    for (ChildNode survivor : children.subList(0, 2)) {
      int unreachable = survivor.awaitEvent(0, "UnreachableMember", victim, bound);
      int downed = survivor.awaitEvent(unreachable, "MemberDowned", victim, bound);
      int removed = survivor.awaitEvent(downed, "MemberRemoved", victim, bound);
      long took = survivor.eventTime(removed) - stoppedAt;
      // the last heartbeat heard may be up to one interval older than the stop
      long earliest = pause.plus(stableAfter).minus(heartbeat).toMillis();
      assertTrue(took >= earliest, "removed " + took + " ms after the stop, before the pause + stable-after");
      System.out.println("a frozen JVM was removed by " + survivor.process().pid() + " " + took + " ms after the stop");
    }

    frozen.signal("CONT");
    frozen.await(0, ClusterChildNode.SYSTEM_TERMINATED, x -> true, Duration.ofSeconds(30));
    assertTrue(frozen.process().waitFor(20, TimeUnit.SECONDS), "the resumed node's JVM exits");
    String majority = nodes.get(0) + ":UP," + nodes.get(1) + ":UP";
    for (ChildNode survivor : children.subList(0, 2)) {
      assertEquals(majority, survivor.lastMembers(), "the resumed node never comes back");
    }
  }
}
