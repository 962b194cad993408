package dev.troupe.cluster.internal.core;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.Cluster;
import dev.troupe.testkit.TestKit;
import java.util.ArrayList;
import java.util.List;

/**
 * Actor systems with {@code troupe.actor.provider = cluster} on 127.0.0.1, port 0, made for one
 * test and shut down after it. Timings are short for tests: seeds asked every 300 ms, downing
 * after 2 s of stability.
 *
 * <p>Each node must terminate within 30 s: above what its leave may take by the product's bounds
 * when a member is gone or crashed and answers nothing (the hand-over, at most {@code
 * troupe.cluster.sharding.hand-over-timeout} = 10 s, then {@code leave-ack-timeout} = 2 s here, then
 * the {@code cluster-exiting} phase's 5 s), so that only a node that would never terminate fails.
 */
final class ClusterNodes implements AutoCloseable {
  private final List<ActorSystem> systems = new ArrayList<>();

  static Config config(String engine, String extra) {
    return ConfigFactory.parseString("troupe.actor.provider = cluster\n"
        + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
        + "troupe.remote.canonical.port = 0\n"
        + "troupe.cluster.membership.provider = " + engine + "\n"
        + "troupe.cluster.seed-node-timeout = 300ms\n"
        + "troupe.cluster.leave-ack-timeout = 2s\n"
        + "troupe.cluster.downing.stable-after = 2s\n"
        + "troupe.cluster.failure-detector.heartbeat-interval = 200ms\n"
        + "troupe.cluster.failure-detector.acceptable-heartbeat-pause = 1s\n"
        + "troupe.cluster.jgroups.join-timeout = 1s\n"
        + "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n"
        + "troupe.test.shutdown-timeout = 30s\n"
        + extra + "\n"); // last, so that a test's own settings win
  }

  /** @return a new node of the cluster {@code name} */
  ActorSystem start(String name, String engine) {
    return start(name, engine, "");
  }

  ActorSystem start(String name, String engine, String extra) {
    ActorSystem s = ActorSystem.create(name, config(engine, extra));
    systems.add(s);
    return s;
  }

  /**
   * @param name the cluster's name
   * @param n how many members
   * @return {@code n} in-memory members joined through the first, all Up on every one of them
   */
  List<ActorSystem> formInMemory(String name, int n) {
    return formInMemory(name, n, "");
  }

  /**
   * @param name the cluster's name
   * @param n how many members
   * @param extra configuration of every member
   * @return {@code n} in-memory members joined through the first, all Up on every one of them
   */
  List<ActorSystem> formInMemory(String name, int n, String extra) {
    List<ActorSystem> s = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      s.add(start(name, "in-memory", extra));
    }
    List<TestKit> probes = s.stream().map(ClusterInMemoryTest::probe).toList();
    for (ActorSystem sys : s) {
      Cluster.get(sys).join(s.get(0).address());
    }
    for (TestKit p : probes) {
      ClusterInMemoryTest.ups(p, n);
    }
    return s;
  }

  @Override
  public void close() {
    for (ActorSystem s : systems) {
      s.terminate();
    }
    for (ActorSystem s : systems) {
      TestKit.shutdownActorSystem(s);
    }
  }
}
