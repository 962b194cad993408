package dev.troupe.remote.internal.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.remote.internal.association.Association;
import dev.troupe.remote.internal.watch.WatchedNodes;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.ChildJvm;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A watcher hears when a whole node goes: it says it leaves (graceful termination), or it vanishes
 * and the failure detector gives up on it; heartbeats go only while something is watched there.
 */
class NodeLossTest {
  /** Heartbeats every 100 ms, a node silent for about 1.7 s declared gone. */
  static final String FAST_DETECTION =
      "troupe.actor.provider = remote\n"
          + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
          + "troupe.remote.canonical.port = 0\n"
          + "troupe.remote.watch-failure-detector.heartbeat-interval = 100ms\n"
          + "troupe.remote.watch-failure-detector.acceptable-heartbeat-pause = 1s\n";

  private static final Duration WAIT = Duration.ofSeconds(10);

  /**
   * How long a child JVM may take to print its port: a JVM start, class loading and a node's
   * start, all on a machine whose cores other processes may hold (CI runs suites side by side). A
   * bound, not a wait: the test goes on as soon as the line comes, and a child that dies fails it
   * at once with what it printed.
   */
  private static final Duration CHILD_START = Duration.ofSeconds(90);

  /** The child's JVM: a small heap, and the flags that make a short-lived JVM start with the least CPU. */
  private static final List<String> CHILD_JVM = List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  /** Does nothing but live. */
  public static final class Idle extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  @RegisterExtension
  static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(FAST_DETECTION);

  static ActorSystem a;
  private Process child;

  @BeforeAll
  static void node() {
    a = TROUPE.system();
  }

  @AfterEach
  void killChild() throws InterruptedException {
    if (child != null) {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static WatchedNodes watchedNodes(ActorSystem system) {
    return ((RemoteActorRefProvider) ((RuntimeSystem) system).provider()).watchedNodes();
  }

  private static ActorRef lookup(ActorSystem from, String address, String path) {
    return from.actorSelection(address + path).resolveOne(WAIT).toCompletableFuture().join();
  }

  private static void await(String what, BooleanSupplier condition) {
    new TestKit(a).awaitCond(WAIT, Duration.ofMillis(10), "not within " + WAIT + ": " + what, condition::getAsBoolean);
  }

  @Test
  void aWatcherHearsPromptlyWhenTheWatchedActorsNodeTerminates() {
    ActorSystem b = TROUPE.createSystem("");
    b.actorOf(Props.create(Idle.class), "leaving");
    ActorRef remote = lookup(a, b.address().toString(), "/user/leaving");
    TestKit probe = new TestKit(a);
    probe.watch(remote);
    // the watch was delivered (acknowledged): b's termination must now be what the watcher hears
    Association toB = ((RemoteActorRefProvider) ((RuntimeSystem) a).provider()).association(b.address());
    await("the watch acknowledged by b", () -> toB.outbox().acknowledged() >= 1 && toB.outbox().size() == 0);

    TestKit.shutdownActorSystem(b);

    // Its own death notice (existence confirmed) or the node's leaving notice, whichever is first.
    Terminated t = probe.expectTerminated(Duration.ofSeconds(3), remote);
    assertTrue(t.existenceConfirmed() || t.addressTerminated(), t.toString());
    probe.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void aLeavingNoticeTerminatesTheWatchesOfThatNodesActorsAtOnce() {
    ActorSystem b = TROUPE.createSystem("");
    b.actorOf(Props.create(Idle.class), "alive");
    ActorRef remote = lookup(a, b.address().toString(), "/user/alive");
    TestKit probe = new TestKit(a);
    probe.watch(remote);
    await("the watch registered", () -> watchedNodes(a).nodes().contains(b.address()));

    ((RemoteActorRefProvider) ((RuntimeSystem) b).provider()).sayLeaving(); // b lives on

    Terminated t = probe.expectTerminated(Duration.ofSeconds(3), remote);
    assertFalse(t.existenceConfirmed(), t.toString());
    assertTrue(t.addressTerminated(), t.toString());
    probe.expectNoMessage(Duration.ofMillis(300));
    TestKit.shutdownActorSystem(b);
  }

  @Test
  void aWatcherHearsExactlyOnceWhenTheWatchedActorsNodeVanishes() throws Exception {
    child = ChildJvm.builder(CHILD_JVM, VanishingNode.class).redirectErrorStream(true).start();
    String port = ChildJvm.awaitLine(child, VanishingNode.PORT_LINE, CHILD_START);
    String address = "troupe://" + VanishingNode.SYSTEM + "@127.0.0.1:" + port;
    ActorRef remote = lookup(a, address, "/user/target");
    TestKit probe = new TestKit(a);
    probe.watch(remote);
    Address node = Address.parse(address);
    long before = watchedNodes(a).heartbeatsSent(node);
    await("heartbeats to the watched node", () -> watchedNodes(a).heartbeatsSent(node) >= before + 3);

    child.destroyForcibly();

    Terminated t = probe.expectTerminated(Duration.ofSeconds(15), remote);
    assertFalse(t.existenceConfirmed(), t.toString());
    assertTrue(t.addressTerminated(), t.toString());
    probe.expectNoMessage(Duration.ofSeconds(1));
    assertFalse(watchedNodes(a).nodes().stream().anyMatch(n -> n.toString().equals(address)), "forgotten");
  }

  @Test
  void heartbeatsGoOnlyWhileSomethingIsWatchedOnTheNode() {
    ActorSystem b = TROUPE.createSystem("");
    ActorSystem pacer = TROUPE.createSystem(""); // watched throughout: its heartbeats measure the quiet windows
    b.actorOf(Props.create(Idle.class), "watched");
    pacer.actorOf(Props.create(Idle.class), "pacer");
    ActorRef remote = lookup(a, b.address().toString(), "/user/watched");
    TestKit probe = new TestKit(a);
    probe.watch(lookup(a, pacer.address().toString(), "/user/pacer"));
    WatchedNodes nodes = watchedNodes(a);
    assertFalse(nodes.nodes().contains(b.address()), "no timer for a node that nobody watches");

    awaitPacerBeats(nodes, pacer.address()); // three intervals in which b's timer, had it one, would fire
    assertEquals(0, nodes.heartbeatsSent(b.address()), "no heartbeats while nothing is watched");

    probe.watch(remote);
    await("heartbeats once watched", () -> nodes.heartbeatsSent(b.address()) >= 2);
    probe.unwatch(remote);
    await("the node forgotten after the unwatch", () -> !nodes.nodes().contains(b.address()));
    long stopped = nodes.heartbeatsSent(b.address());
    awaitPacerBeats(nodes, pacer.address());
    assertEquals(stopped, nodes.heartbeatsSent(b.address()), "no heartbeats after the unwatch");
    TestKit.shutdownActorSystem(b);
    TestKit.shutdownActorSystem(pacer);
  }

  /** Returns after three more heartbeats to {@code pacer}: three heartbeat intervals have passed. */
  private static void awaitPacerBeats(WatchedNodes nodes, Address pacer) {
    long from = nodes.heartbeatsSent(pacer);
    await("three heartbeats to the pacing node", () -> nodes.heartbeatsSent(pacer) >= from + 3);
  }
}
