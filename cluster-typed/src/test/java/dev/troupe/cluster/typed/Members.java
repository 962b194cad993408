package dev.troupe.cluster.typed;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Cluster members in this JVM for one test class: the in-memory engine, remoting on 127.0.0.1 port
 * 0, each joining the first; {@link #start} returns once all are Up as the first sees them.
 */
public final class Members {
  private Members() {}

  /**
   * @param name the systems' name
   * @param n how many
   * @param wireClass the test's messages between members (bound to {@code jackson-cbor})
   * @param wait how long forming the cluster may take
   * @return the members, the oldest first
   */
  public static List<ActorSystem> start(String name, int n, Class<?> wireClass, Duration wait) {
    return start(name, n, wireClass, wait, "");
  }

  /**
   * {@link #start(String, int, Class, Duration)} with settings of the test's own, which win.
   *
   * @param extra configuration, e.g. {@code troupe.remote.untrusted-mode = on}
   */
  public static List<ActorSystem> start(String name, int n, Class<?> wireClass, Duration wait, String extra) {
    Config config = ConfigFactory.parseString("troupe.actor.provider = cluster\n"
        + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
        + "troupe.remote.canonical.port = 0\n"
        + "troupe.cluster.membership.provider = in-memory\n"
        + "troupe.cluster.seed-node-timeout = 300ms\n"
        + "troupe.cluster.leave-ack-timeout = 2s\n"
        + "troupe.cluster.singleton.hand-over-retry-interval = 200ms\n"
        + "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n"
        + "troupe.test.shutdown-timeout = 30s\n"
        + "troupe.serialization.bindings { \"" + wireClass.getName() + "\" = jackson-cbor }\n"
        + extra + "\n");
    List<ActorSystem> members = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      members.add(ActorSystem.create(name, config));
    }
    TestKit events = new TestKit(members.get(0));
    Cluster.get(members.get(0)).subscribe(events.getRef(), ClusterEvent.initialStateAsEvents(),
        ClusterEvent.MemberUp.class);
    Set<Address> up = new HashSet<>();
    for (ActorSystem m : members) {
      Cluster.get(m).join(members.get(0).address()); // the first founds the cluster
      while (up.size() < members.indexOf(m) + 1) { // one join at a time: the oldest is the first
        Object o = events.fishForMessage(wait, "member " + (up.size() + 1) + " up", e -> e instanceof ClusterEvent.MemberUp);
        up.add(((ClusterEvent.MemberUp) o).member().address());
      }
    }
    return members;
  }

  /** Terminates the members and waits (bounded) until each has. */
  public static void stop(List<ActorSystem> members) {
    members.forEach(ActorSystem::terminate);
    members.forEach(TestKit::shutdownActorSystem);
  }
}
