package dev.troupe.samples.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.MemberStatus;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The members of a sample's cluster in this JVM: started one at a time from a section of the
 * samples' configuration, each joining the first, and terminated together.
 */
final class InJvmCluster {
  /** How long a change in the cluster may take. */
  static final long WAIT_SECONDS = 60;

  private InJvmCluster() {}

  /**
   * Starts {@code members} systems named after {@code section}, each joining the first, printing
   * where each listens; returns once all are Up. On a failure, the ones started are terminated.
   *
   * @param section the configuration section (also the systems' name)
   * @param members how many
   * @param out where to print
   * @return the members, the first one first
   */
  static List<ActorSystem> start(String section, int members, PrintStream out) throws Exception {
    List<ActorSystem> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < members; i++) {
        ActorSystem node = ActorSystem.create(section, config(section));
        nodes.add(node);
        Cluster.get(node).join(nodes.get(0).address());
        out.println("member " + (i + 1) + " listening at " + node.address());
        awaitUp(nodes.get(0), i + 1); // one join at a time: the engine admits them sooner so
      }
    } catch (Exception | Error e) {
      terminate(nodes);
      throw e;
    }
    out.println(members + " members Up");
    return nodes;
  }

  /** Terminates every member and waits (bounded) until each has. */
  static void terminate(List<ActorSystem> nodes) throws Exception {
    for (ActorSystem n : nodes) {
      n.terminate();
    }
    for (ActorSystem n : nodes) {
      n.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** Waits until {@code n} members are Up, as {@code node} sees them. */
  private static void awaitUp(ActorSystem node, int n) throws InterruptedException {
    Cluster cluster = Cluster.get(node);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (cluster.state().members().stream().filter(m -> m.status() == MemberStatus.UP).count() < n) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not " + n + " members Up in " + WAIT_SECONDS + " s");
      }
      Thread.sleep(50); // a poll of the membership the node publishes, bounded by the deadline
    }
  }

  /** The section of the samples' configuration, then the rest. */
  private static Config config(String section) {
    ConfigFactory.invalidateCaches();
    Config app = ConfigFactory.load();
    return app.getConfig(section).withFallback(app);
  }
}
