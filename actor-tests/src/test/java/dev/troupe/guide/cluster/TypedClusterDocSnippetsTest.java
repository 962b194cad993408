package dev.troupe.guide.cluster;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.typed.Cluster;
import dev.troupe.cluster.typed.Join;
import dev.troupe.cluster.typed.Subscribe;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.typed.TestProbe;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The typed cluster API's block of {@code docs/cluster.md}, compiled and run: a typed actor on a
 * one-member cluster (loopback, the in-memory engine) subscribes a message adapter to member events
 * and joins through the manager.
 */
@Timeout(60)
class TypedClusterDocSnippetsTest {
  private static final Duration CHANGE = Duration.ofSeconds(15);

  private ActorSystem system;

  @AfterEach
  void stop() {
    if (system != null) {
      TestKit.shutdownActorSystem(system);
    }
  }

  // tag::cluster-typed-api[]
  /** Tells {@code out} a line for each member event this member hears, after founding a cluster. */
  static Behavior<String> membersLog(ActorRef<String> out) {
    return Behaviors.setup(ctx -> {
      Cluster cluster = Cluster.get(ctx.getSystem());
      ActorRef<ClusterEvent.MemberEvent> events = ctx.messageAdapter(ClusterEvent.MemberEvent.class,
          e -> e.getClass().getSimpleName() + " " + e.member().address());
      cluster.subscriptions().tell(Subscribe.create(events, ClusterEvent.MemberEvent.class));
      cluster.manager().tell(Join.create(cluster.selfMember().address()));  // or the seed nodes
      return Behaviors.receiveMessage(line -> {
        out.tell(line);
        return Behaviors.same();
      });
    });
  }
  // end::cluster-typed-api[]

  @Test
  void aTypedActorSubscribesThroughAnAdapterAndFoundsTheCluster() {
    system = ActorSystem.create("docs", ConfigFactory.parseString("troupe.actor.provider = cluster\n"
        + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
        + "troupe.remote.canonical.port = 0\n"
        + "troupe.cluster.membership.provider = in-memory\n"
        + "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n").withFallback(ConfigFactory.load()));
    TestProbe<String> lines = TestProbe.create(Adapter.toTyped(system));
    Adapter.spawn(system, membersLog(lines.getRef()), "members-log");
    String up = "MemberUp " + system.address();
    long deadline = System.nanoTime() + CHANGE.toNanos();
    String line;
    do {
      line = lines.receiveMessage(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
    } while (!line.equals(up));
  }
}
