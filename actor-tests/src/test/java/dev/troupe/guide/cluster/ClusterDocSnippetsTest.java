package dev.troupe.guide.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.singleton.typed.ClusterSingleton;
import dev.troupe.cluster.singleton.typed.SingletonActor;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.AskPattern;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Java blocks of {@code docs/cluster.md}, compiled and run: two nodes in this JVM on loopback
 * with the in-memory engine form a cluster through their seeds, a listener subscribes, the callbacks
 * run, and a node leaves. {@code ClusterDocSnippetsMatchTest} checks that the page shows these
 * regions as they are.
 */
@Timeout(60)
class ClusterDocSnippetsTest {
  private static final Duration CHANGE = Duration.ofSeconds(15);

  private final List<ActorSystem> systems = new ArrayList<>();

  // tag::cluster-listener[]
  /** Logs the cluster's member events as this node hears them. */
  static final class ClusterListener extends AbstractActor {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterListener.class);
    private final Cluster cluster = Cluster.get(getContext().getSystem());

    @Override
    public void preStart() {
      cluster.subscribe(getSelf(), ClusterEvent.initialStateAsEvents(),
          ClusterEvent.MemberEvent.class, ClusterEvent.ReachabilityEvent.class, ClusterEvent.LeaderChanged.class);
    }

    @Override
    public void postStop() {
      cluster.unsubscribe(getSelf());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(ClusterEvent.MemberUp.class, up -> LOG.info("up: {}", up.member()))
          .match(ClusterEvent.UnreachableMember.class, u -> LOG.info("unreachable: {}", u.member()))
          .match(ClusterEvent.MemberRemoved.class,
              r -> LOG.info("removed: {} (was {})", r.member(), r.previousStatus()))
          .match(ClusterEvent.LeaderChanged.class, l -> LOG.info("leader: {}", l.leader()))
          .matchAny(other -> {}) // MemberJoined, MemberLeft, ...: not needed here
          .build();
    }
  }
  // end::cluster-listener[]

  private ActorSystem node(String config) {
    Config c = ConfigFactory.parseString(config + "\n"
        + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
        + "troupe.remote.canonical.port = 0\n"
        + "troupe.cluster.membership.provider = in-memory\n"
        + "troupe.cluster.seed-node-timeout = 300ms\n"
        + "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n");
    ActorSystem s = ActorSystem.create("docs", c.withFallback(ConfigFactory.load()));
    systems.add(s);
    return s;
  }

  @AfterEach
  void stop() {
    for (ActorSystem s : systems) {
      TestKit.shutdownActorSystem(s);
    }
  }

  @Test
  void twoNodesFormAClusterThroughTheSeedsAndOneLeaves() throws Exception {
    ActorSystem system = node("troupe.actor.provider = cluster\ntroupe.cluster.roles = [backend]");
    ActorSystem other = node("troupe.actor.provider = cluster");
    TestKit probe = new TestKit(other);
    Cluster.get(other).subscribe(probe.getRef(), ClusterEvent.initialStateAsEvents(), ClusterEvent.MemberEvent.class);
    Address seed = system.address();
    CountDownLatch up = new CountDownLatch(1);
    CountDownLatch removed = new CountDownLatch(1);

    // tag::cluster-join[]
    Cluster cluster = Cluster.get(system);
    system.actorOf(Props.create(ClusterListener.class), "cluster-listener");
    cluster.registerOnMemberUp(() -> up.countDown());            // e.g. start the work this node does
    cluster.registerOnMemberRemoved(() -> removed.countDown());  // e.g. stop taking requests
    cluster.joinSeedNodes(List.of(seed));                        // or troupe.cluster.seed-nodes
    // end::cluster-join[]
    Cluster.get(other).joinSeedNodes(List.of(seed));
    assertTrue(up.await(CHANGE.toSeconds(), TimeUnit.SECONDS), "registerOnMemberUp ran");
    probe.awaitCond(CHANGE, Duration.ofMillis(20), "both Up on both nodes",
        () -> Cluster.get(other).state().members().stream().filter(m -> m.status() == MemberStatus.UP).count() == 2
            && cluster.state().members().stream().filter(m -> m.status() == MemberStatus.UP).count() == 2);

    // tag::cluster-state[]
    CurrentClusterState state = cluster.state();
    List<Member> members = state.members();                      // oldest first, not removed
    Optional<Address> leader = state.leader();                   // the oldest Up member, the same on every node
    long backends = members.stream()
        .filter(m -> m.status() == MemberStatus.UP && m.hasRole("backend"))
        .count();
    boolean meUp = cluster.selfMember().status() == MemberStatus.UP;
    // end::cluster-state[]
    assertEquals(2, members.size());
    assertEquals(Optional.of(seed), leader);
    assertEquals(1, backends);
    assertTrue(meUp);

    // tag::cluster-leave[]
    cluster.leave(cluster.selfAddress());   // or system.terminate(): coordinated shutdown leaves too
    // end::cluster-leave[]
    probe.fishForMessage(CHANGE, "MemberRemoved of the seed",
        m -> m instanceof ClusterEvent.MemberRemoved r && r.member().address().equals(seed));
    assertTrue(removed.await(CHANGE.toSeconds(), TimeUnit.SECONDS), "registerOnMemberRemoved ran");
    probe.awaitResult(CHANGE, system.getWhenTerminated());
  }

  /** The typed singleton of the page: keeps the tasks it was assigned. */
  static final class Boss {
    interface Command {}

    record Assign(String task) implements Command {}

    record Tasks(dev.troupe.actor.typed.ActorRef<List<String>> replyTo) implements Command {}

    record Stop() implements Command {}

    static dev.troupe.actor.typed.Behavior<Command> create() {
      List<String> tasks = new ArrayList<>();
      return Behaviors.receive(Command.class)
          .onMessage(Assign.class, a -> {
            tasks.add(a.task());
            return Behaviors.same();
          })
          .onMessage(Tasks.class, t -> {
            t.replyTo().tell(List.copyOf(tasks));
            return Behaviors.same();
          })
          .onMessage(Stop.class, s -> Behaviors.stopped())
          .build();
    }
  }

  @Test
  void aTypedSingletonRunsOnTheOldestMemberAndTheRefReachesIt() throws Exception {
    ActorSystem system = node("troupe.actor.provider = cluster");
    Cluster.get(system).join(system.address());
    new TestKit(system).awaitCond(CHANGE, Duration.ofMillis(20), "the member Up",
        () -> Cluster.get(system).selfMember().status() == MemberStatus.UP);
    String task = "build the roof";

    // tag::cluster-typed-singleton[]
    ActorRef<Boss.Command> boss = ClusterSingleton.get(system).init(          // on every member
        SingletonActor.of(Boss.create(), "boss").withStopMessage(new Boss.Stop()));
    boss.tell(new Boss.Assign(task));                                         // wherever it runs
    // end::cluster-typed-singleton[]
    List<String> tasks = AskPattern.<Boss.Command, List<String>>ask(boss, Boss.Tasks::new, CHANGE,
        Adapter.toTyped(system).scheduler()).toCompletableFuture().get(CHANGE.toSeconds(), TimeUnit.SECONDS);
    assertEquals(List.of(task), tasks);
  }
}
