package dev.troupe.cluster.internal.singleton;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.cluster.singleton.ClusterSingletonManager;
import dev.troupe.cluster.singleton.ClusterSingletonManagerSettings;
import dev.troupe.cluster.singleton.ClusterSingletonProxy;
import dev.troupe.cluster.singleton.ClusterSingletonProxySettings;
import dev.troupe.remote.Dropped;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Singleton managers and proxies of several nodes in one actor system ({@link FakeCluster}), fed
 * the same membership changes by hand, so that the hand-over protocol runs for real. Every
 * instance reports its start, termination message and stop to one ordered log (a probe), and
 * counts how many instances are alive at once.
 */
@ExtendWith(ActorSystemExtension.class)
class ClusterSingletonTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration QUIET = Duration.ofMillis(300);
  private static final String STOP = "stop-now";

  /** What the instances of one test report, shared by all nodes. */
  static final class Recording {
    final ActorRef log;
    final boolean holdStop; // the termination message is only logged; "release" stops the instance
    final AtomicInteger live = new AtomicInteger();
    final AtomicInteger mostAlive = new AtomicInteger();
    final Map<Integer, ActorRef> instances = new ConcurrentHashMap<>();
    final List<int[]> received = Collections.synchronizedList(new ArrayList<>()); // {node, value}, in arrival order

    Recording(ActorRef log, boolean holdStop) {
      this.log = log;
      this.holdStop = holdStop;
    }
  }

  /** The singleton of the tests: reports its life to the recording and records the integers it gets. */
  static final class Boss extends AbstractActor {
    private final int node;
    private final Recording rec;

    Boss(int node, Recording rec) {
      this.node = node;
      this.rec = rec;
    }

    static Props props(int node, Recording rec) {
      return Props.create(Boss.class, () -> new Boss(node, rec));
    }

    @Override
    public void preStart() {
      rec.mostAlive.accumulateAndGet(rec.live.incrementAndGet(), Math::max);
      rec.instances.put(node, getSelf());
      rec.log.tell("start n" + node, ActorRef.noSender());
    }

    @Override
    public void postStop() {
      rec.live.decrementAndGet();
      rec.instances.remove(node, getSelf());
      rec.log.tell("stop n" + node, ActorRef.noSender());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Integer.class, i -> rec.received.add(new int[] {node, i}))
          .matchEquals(STOP, m -> {
            rec.log.tell("termination n" + node, ActorRef.noSender());
            if (!rec.holdStop) {
              getContext().stop(getSelf());
            }
          })
          .matchEquals("release", m -> getContext().stop(getSelf()))
          .build();
    }
  }

  private static ClusterSingletonManagerSettings managerSettings(ActorSystem system) {
    return ClusterSingletonManagerSettings.create(system).withHandOverRetryInterval(Duration.ofMillis(100));
  }

  private static ClusterSingletonProxySettings proxySettings(ActorSystem system) {
    return ClusterSingletonProxySettings.create(system).withIdentificationInterval(Duration.ofMillis(100));
  }

  private static ActorRef manager(ActorSystem system, FakeCluster cluster, int node, Recording rec,
      Object terminationMessage, ClusterSingletonManagerSettings settings) {
    return system.actorOf(ManagerActor.props(Boss.props(node, rec), terminationMessage, settings,
        cluster.membership(node)), FakeCluster.prefix(node) + "boss");
  }

  private static ActorRef manager(ActorSystem system, FakeCluster cluster, int node, Recording rec) {
    return manager(system, cluster, node, rec, STOP, managerSettings(system));
  }

  private static ActorRef proxy(ActorSystem system, FakeCluster cluster, int node,
      ClusterSingletonProxySettings settings) {
    return system.actorOf(ProxyActor.props("/user/" + FakeCluster.prefix(node) + "boss", settings,
        cluster.membership(node)), FakeCluster.prefix(node) + "proxy");
  }

  @Test
  void theSingletonRunsOnTheOldestMemberOnly(ActorSystem system, TestKit log) {
    Recording rec = new Recording(log.getRef(), false);
    FakeCluster cluster = new FakeCluster();
    cluster.up(1);
    cluster.up(2);
    cluster.up(3);
    for (int n = 3; n >= 1; n--) {
      manager(system, cluster, n, rec);
    }
    log.expectMsg(WAIT, "start n1");
    log.expectNoMessage(QUIET);
    ActorRef proxy = proxy(system, cluster, 3, proxySettings(system));
    proxy.tell(7, ActorRef.noSender());
    log.awaitCond(WAIT, Duration.ofMillis(10), "the message through n3's proxy reaches n1's instance",
        () -> rec.received.size() == 1);
    assertEquals(List.of(1, 7), List.of(rec.received.get(0)[0], rec.received.get(0)[1]));
    assertEquals(1, rec.mostAlive.get());
  }

  @Test
  void aGracefulLeaveStopsTheOldInstanceBeforeTheNewOneStarts(ActorSystem system, TestKit log) {
    Recording rec = new Recording(log.getRef(), true);
    FakeCluster cluster = new FakeCluster();
    cluster.up(1);
    cluster.up(2);
    cluster.up(3);
    for (int n = 1; n <= 3; n++) {
      manager(system, cluster, n, rec);
    }
    log.expectMsg(WAIT, "start n1");
    ActorRef first = rec.instances.get(1);

    cluster.leave(1);
    log.expectMsg(WAIT, "termination n1");
    log.expectNoMessage(QUIET); // n1's instance still runs: nothing may start elsewhere
    first.tell("release", ActorRef.noSender());
    log.expectMsg(WAIT, "stop n1");
    log.expectMsg(WAIT, "start n2");

    cluster.exit(1);
    cluster.remove(1);
    log.expectNoMessage(QUIET);
    assertEquals(1, rec.mostAlive.get(), "never two instances at once");
  }

  @Test
  void afterACrashTheNewInstanceStartsOnlyOnceTheOldMemberIsRemoved(ActorSystem system, TestKit log) {
    Recording rec = new Recording(log.getRef(), false);
    FakeCluster cluster = new FakeCluster();
    cluster.up(1);
    cluster.up(2);
    ActorRef m1 = manager(system, cluster, 1, rec);
    manager(system, cluster, 2, rec);
    log.expectMsg(WAIT, "start n1");

    system.stop(m1); // node 1 dies with its instance
    log.expectMsg(WAIT, "stop n1");
    cluster.down(1);
    log.expectNoMessage(QUIET); // downed is not removed: node 2 waits
    log.getRef().tell("removing n1", ActorRef.noSender());
    cluster.remove(1);
    log.expectMsg(WAIT, "removing n1");
    log.expectMsg(WAIT, "start n2");
    assertEquals(1, rec.mostAlive.get());
  }

  @Test
  void onlyMembersWithTheRoleRunTheSingleton(ActorSystem system, TestKit log) {
    Recording rec = new Recording(log.getRef(), false);
    FakeCluster cluster = new FakeCluster();
    cluster.up(1);
    cluster.up(2, "worker");
    cluster.up(3, "worker");
    for (int n = 1; n <= 3; n++) {
      manager(system, cluster, n, rec, STOP, managerSettings(system).withRole("worker"));
    }
    log.expectMsg(WAIT, "start n2");
    log.expectNoMessage(QUIET);
    ActorRef proxy = proxy(system, cluster, 1, proxySettings(system).withRole("worker"));
    proxy.tell(5, ActorRef.noSender());
    log.awaitCond(WAIT, Duration.ofMillis(10), "the proxy on the node without the role reaches n2",
        () -> rec.received.size() == 1);
    assertEquals(2, rec.received.get(0)[0]);
  }

  @Test
  void theProxyHoldsMessagesWhileTheSingletonMovesAndLosesNoneOnAGracefulHandOver(ActorSystem system, TestKit log) {
    Recording rec = new Recording(log.getRef(), false);
    FakeCluster cluster = new FakeCluster();
    cluster.up(1);
    cluster.up(2);
    cluster.up(3);
    for (int n = 1; n <= 3; n++) {
      manager(system, cluster, n, rec, PoisonPill.getInstance(), managerSettings(system));
    }
    ActorRef proxy = proxy(system, cluster, 3, proxySettings(system).withBufferSize(200_000));
    log.expectMsg(WAIT, "start n1");
    int sent = 0;
    proxy.tell(++sent, ActorRef.noSender());
    log.awaitCond(WAIT, Duration.ofMillis(10), "the proxy found n1's instance", () -> rec.received.size() == 1);
    while (sent < 1_000) {
      proxy.tell(++sent, ActorRef.noSender());
    }
    cluster.leave(1);
    // keep sending while the singleton moves: some reach n1 before it stops, the rest wait for n2
    while (!rec.instances.containsKey(2) && sent < 20_000) {
      proxy.tell(++sent, ActorRef.noSender());
    }
    log.awaitCond(WAIT, Duration.ofMillis(10), "n2 takes over", () -> rec.instances.containsKey(2));
    for (int i = 0; i < 1_000; i++) {
      proxy.tell(++sent, ActorRef.noSender());
    }
    int total = sent;
    log.awaitCond(WAIT, Duration.ofMillis(10), "all " + total + " messages arrive", () -> rec.received.size() >= total);
    List<int[]> got;
    synchronized (rec.received) {
      got = new ArrayList<>(rec.received);
    }
    assertEquals(total, got.size(), "no message lost or repeated");
    int node = 1;
    for (int i = 0; i < total; i++) {
      assertEquals(i + 1, got.get(i)[1], "messages arrive in the order sent");
      assertTrue(got.get(i)[0] >= node, "once at n2, never back at n1");
      node = got.get(i)[0];
    }
    assertEquals(1, got.get(0)[0]);
    assertEquals(2, got.get(total - 1)[0]);
    assertEquals(1, rec.mostAlive.get());
  }

  @Test
  void aFullBufferDropsTheOldestAndPublishesDropped(ActorSystem system, TestKit log, TestKit events) {
    Recording rec = new Recording(log.getRef(), false);
    FakeCluster cluster = new FakeCluster();
    system.eventStream().subscribe(events.getRef(), Dropped.class);
    ActorRef proxy = proxy(system, cluster, 1, proxySettings(system).withBufferSize(3));
    for (int i = 1; i <= 5; i++) {
      proxy.tell(i, ActorRef.noSender());
    }
    Dropped first = events.expectMsgClass(WAIT, Dropped.class);
    Dropped second = events.expectMsgClass(WAIT, Dropped.class);
    assertEquals(List.of(1, 2), List.of(first.message(), second.message()), "the oldest are dropped first");
    assertEquals(proxy, first.recipient());
    assertTrue(first.reason().contains("troupe.cluster.singleton.proxy.buffer-size"), first.reason());

    cluster.up(1);
    manager(system, cluster, 1, rec);
    log.expectMsg(WAIT, "start n1");
    log.awaitCond(WAIT, Duration.ofMillis(10), "the held messages arrive", () -> rec.received.size() == 3);
    assertEquals(List.of(3, 4, 5), rec.received.stream().map(r -> r[1]).toList());
    events.expectNoMessage(QUIET);
  }

  /** Stands in for a node's manager: hands every message to a probe, with its sender. */
  static final class Forwarder extends AbstractActor {
    private final ActorRef to;

    Forwarder(ActorRef to) {
      this.to = to;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> to.forward(m, getContext())).build();
    }
  }

  @Test
  void theNewOwnerAsksABoundedNumberOfTimesThenWaitsForTheHandOver(ActorSystem system, TestKit log, TestKit oldNode) {
    Recording rec = new Recording(log.getRef(), false);
    FakeCluster cluster = new FakeCluster();
    cluster.up(1);
    cluster.up(2);
    system.actorOf(Props.create(Forwarder.class, oldNode.getRef()), "n1-boss"); // node 1 runs it, silent
    cluster.leave(1);
    manager(system, cluster, 2, rec, STOP, managerSettings(system).withHandOverRetries(3)
        .withHandOverRetryInterval(Duration.ofMillis(50)));
    for (int i = 0; i < 3; i++) {
      assertEquals(new Protocol.HandOverToMe(FakeCluster.node(2)), oldNode.expectMsgClass(WAIT, Protocol.HandOverToMe.class));
    }
    oldNode.expectNoMessage(QUIET); // asked three times, then it only waits
    log.expectNoMessage(Duration.ZERO);
    oldNode.getLastSender().tell(new Protocol.HandOverDone(FakeCluster.node(1)), ActorRef.noSender());
    log.expectMsg(WAIT, "start n2");
  }

  @Test
  void thePublicPropsRunOverTheMembershipTheClusterInstalled(ActorSystem system, TestKit log) {
    Recording rec = new Recording(log.getRef(), false);
    FakeCluster cluster = new FakeCluster();
    cluster.up(1);
    SingletonHooks.install(system, cluster.membership(1));
    system.actorOf(ClusterSingletonManager.props(Boss.props(1, rec), STOP, ClusterSingletonManagerSettings.create(system)),
        "n1-boss");
    ActorRef proxy = system.actorOf(ClusterSingletonProxy.props("/user/n1-boss",
        ClusterSingletonProxySettings.create(system)), "n1-proxy");
    proxy.tell(1, ActorRef.noSender());
    log.expectMsg(WAIT, "start n1");
    log.awaitCond(WAIT, Duration.ofMillis(10), "the message reaches the singleton", () -> rec.received.size() == 1);
  }

  @Test
  void withoutTheClusterTheManagerAndTheProxyStopWhenTheyStart(ActorSystem system, TestKit probe) {
    Recording rec = new Recording(probe.getRef(), false);
    ActorRef manager = system.actorOf(ClusterSingletonManager.props(Boss.props(1, rec), STOP,
        ClusterSingletonManagerSettings.create(system)), "boss");
    ActorRef proxy = system.actorOf(ClusterSingletonProxy.props("/user/boss",
        ClusterSingletonProxySettings.create(system)), "bossProxy");
    probe.watch(manager);
    probe.watch(proxy);
    Set<ActorRef> stopped = new HashSet<>();
    for (Object m : probe.receiveN(2, WAIT)) {
      stopped.add(((Terminated) m).actor());
    }
    assertEquals(Set.of(manager, proxy), stopped, "both stop, in either order");
  }

  @RepeatedTest(3)
  void severalHandOversInARowNeverRunTwoInstancesAtOnce(ActorSystem system, TestKit log) {
    Recording rec = new Recording(log.getRef(), false);
    FakeCluster cluster = new FakeCluster();
    for (int n = 1; n <= 6; n++) {
      cluster.up(n);
    }
    ActorRef[] managers = new ActorRef[7];
    for (int n = 6; n >= 1; n--) {
      managers[n] = manager(system, cluster, n, rec);
    }
    ActorRef proxy = proxy(system, cluster, 6, proxySettings(system));
    log.expectMsg(WAIT, "start n1");
    int[] sent = {0};
    Runnable burst = () -> {
      for (int i = 0; i < 100; i++) {
        proxy.tell(++sent[0], ActorRef.noSender());
      }
    };
    burst.run();
    // three owners leave at once: whoever is oldest and up in the meantime takes it, one at a time
    cluster.leave(1);
    cluster.leave(2);
    burst.run();
    cluster.leave(3);
    log.awaitCond(WAIT, Duration.ofMillis(10), "n4 runs the singleton", () -> rec.instances.containsKey(4));
    burst.run();
    cluster.exit(1);
    cluster.remove(2); // leaving nodes go in any order once they handed over
    cluster.exit(3);
    cluster.remove(1);
    cluster.remove(3);
    cluster.leave(4);
    burst.run();
    log.awaitCond(WAIT, Duration.ofMillis(10), "n5 runs the singleton", () -> rec.instances.containsKey(5));
    awaitReceived(log, rec, sent[0]);

    // then n5 crashes: n6 starts only after n5's removal, and the proxy finds it there
    system.stop(managers[5]);
    log.awaitCond(WAIT, Duration.ofMillis(10), "n5's instance died with its node", () -> rec.live.get() == 0);
    cluster.down(5);
    cluster.remove(4);
    cluster.remove(5);
    log.awaitCond(WAIT, Duration.ofMillis(10), "n6 runs the singleton", () -> rec.instances.containsKey(6));
    burst.run();
    awaitReceived(log, rec, sent[0]);
    assertEquals(1, rec.mostAlive.get(), "never two instances alive at once");
  }

  private static void awaitReceived(TestKit log, Recording rec, int total) {
    log.awaitCond(WAIT, Duration.ofMillis(10), "all " + total + " messages arrive", () -> rec.received.size() >= total);
    List<int[]> got;
    synchronized (rec.received) {
      got = new ArrayList<>(rec.received);
    }
    assertEquals(total, got.size(), "none lost or repeated over the hand-overs");
    for (int i = 0; i < total; i++) {
      assertEquals(i + 1, got.get(i)[1], "in the order sent");
    }
  }
}
