package dev.troupe.actor.tests.seam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.runtime.spi.ActorRefProvider;
import dev.troupe.runtime.spi.ActorRefProviderFactory;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.LocalActorRefProvider;
import dev.troupe.remote.Dropped;
import dev.troupe.remote.spi.PeerEvent;
import dev.troupe.remote.spi.RemoteProvider;
import dev.troupe.remote.spi.RemoteProviders;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The remoting SPI used as the cluster will use it, from outside the remoting module: a provider
 * of its own ({@link FakeClusterProvider}, {@code troupe.actor.provider} naming its factory) wraps
 * the remote one ({@link RemoteProviders#create}), hears peers' lifecycle with their incarnation
 * uids, quarantines a peer's incarnation and declares a node's address terminated, and the
 * effects show: {@code Terminated} with {@code addressTerminated} for the local watcher, the
 * quarantine event, and no further delivery to that incarnation (what is sent is dropped). Three
 * systems on 127.0.0.1, port 0.
 */
class RemotingSpiTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  /** {@code troupe.actor.provider = <this class>}: the remote provider, wrapped. */
  public static final class FakeClusterProviderFactory implements ActorRefProviderFactory {
    public FakeClusterProviderFactory() {}

    @Override
    public String name() {
      return "fake-cluster";
    }

    @Override
    public ActorRefProvider create(RuntimeSystem system) {
      return new FakeClusterProvider(RemoteProviders.create(system));
    }
  }

  /** Delegates the provider's work to the remote provider and keeps it for the rest. */
  static final class FakeClusterProvider implements ActorRefProvider {
    final RemoteProvider remote;
    final BlockingQueue<PeerEvent> events = new LinkedBlockingQueue<>();

    FakeClusterProvider(RemoteProvider remote) {
      this.remote = remote;
      remote.subscribe(events::add);
    }

    @Override
    public Address address() {
      return remote.address();
    }

    @Override
    public LocalActorRefProvider local() {
      return remote.local();
    }

    @Override
    public void init() {
      remote.init();
    }

    @Override
    public InternalActorRef resolveActorRef(ActorPath path) {
      return remote.resolveActorRef(path);
    }

    @Override
    public InternalActorRef rootGuardianAt(Address address) {
      return remote.rootGuardianAt(address);
    }

    @Override
    public InternalActorRef actorOf(InternalActorRef parent, Props props, ActorPath path, Address target) {
      return remote.actorOf(parent, props, path, target);
    }

    @Override
    public void shutdown() {
      remote.shutdown();
    }

    /** @return the next event about {@code node} of {@code type}, skipping others; fails after {@link #WAIT} */
    <E extends PeerEvent> E next(Class<E> type, Address node) throws InterruptedException {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (true) {
        PeerEvent e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (e == null) {
          throw new AssertionError("no " + type.getSimpleName() + " of " + node + " within " + WAIT);
        }
        if (type.isInstance(e) && e.address().equals(node)) {
          return type.cast(e);
        }
      }
    }
  }

  private ActorSystem cluster; // the node with the fake cluster provider
  private ActorSystem peer;

  private static Config node(String provider) {
    return ConfigFactory.parseString(
        "troupe.actor.provider = \"" + provider + "\"\n"
            + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
            + "troupe.remote.canonical.port = 0\n"
            // what waits for a refused incarnation is dropped after two quick tries, not five slow ones
            + "troupe.remote.advanced.reconnect-attempts = 2\n"
            + "troupe.remote.advanced.reconnect-min-backoff = 20ms\n");
  }

  @BeforeEach
  void start() {
    cluster = ActorSystem.create("cluster", node(FakeClusterProviderFactory.class.getName()));
    peer = ActorSystem.create("peer", node("remote"));
  }

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(cluster);
    TestKit.shutdownActorSystem(peer);
  }

  private FakeClusterProvider fake() {
    return assertInstanceOf(FakeClusterProvider.class, ((RuntimeSystem) cluster).provider(), "the system's provider");
  }

  private static RemoteProvider remoteOf(ActorSystem s) {
    return assertInstanceOf(RemoteProvider.class, ((RuntimeSystem) s).provider(), "a remote provider");
  }

  /**
   * A probe on the peer, watched from the cluster node through a ref resolved there, with one
   * message delivered, so that the two are associated.
   *
   * @return the probe as the cluster node sees it
   */
  private ActorRef associate(TestKit watcher, TestKit onPeer) {
    ActorRef there = fake().resolveActorRef(onPeer.getRef().path());
    watcher.watch(there);
    there.tell("hello", watcher.getRef());
    onPeer.expectMsg(WAIT, "hello");
    return there;
  }

  @Test
  void aWrappingProviderQuarantinesAPeersIncarnationAndNothingMoreReachesIt() throws Exception {
    FakeClusterProvider fake = fake();
    TestKit watcher = new TestKit(cluster);
    TestKit onPeer = new TestKit(peer);
    TestKit dropped = new TestKit(cluster);
    cluster.eventStream().subscribe(dropped.getRef(), Dropped.class);
    ActorRef there = associate(watcher, onPeer);
    Address peerAddress = peer.address();
    long peerUid = remoteOf(peer).uid();

    PeerEvent.Associated up = fake.next(PeerEvent.Associated.class, peerAddress);
    assertEquals(peerUid, up.uid(), "the associated event names the peer's incarnation");
    assertEquals(OptionalLong.of(peerUid), fake.remote.incarnation(peerAddress));

    fake.remote.quarantine(peerAddress, peerUid, "the test's membership says it is down");

    PeerEvent.Quarantined q = fake.next(PeerEvent.Quarantined.class, peerAddress);
    assertEquals(peerUid, q.uid(), "the quarantined incarnation");
    assertTrue(q.reason().contains("the test's membership says it is down"), q.reason());
    Terminated t = watcher.expectTerminated(WAIT, there);
    assertTrue(t.addressTerminated(), "Terminated of an actor of a quarantined incarnation: " + t);

    there.tell("after the quarantine", watcher.getRef());
    // System messages still unacknowledged when the incarnation was quarantined (the watch) may be
    // dropped too, before or after ours: look for ours among them.
    Object d =
        dropped.fishForMessage(
            WAIT,
            "the Dropped of what was sent to the quarantined incarnation",
            m -> m instanceof Dropped x && "after the quarantine".equals(x.message()));
    assertTrue(((Dropped) d).reason().contains("quarantined"), "dropped because of the quarantine: " + d);
    onPeer.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void aWrappingProviderHearsAPeerThatLeavesDisassociateWithItsUid() throws Exception {
    FakeClusterProvider fake = fake();
    TestKit watcher = new TestKit(cluster);
    TestKit onPeer = new TestKit(peer);
    associate(watcher, onPeer);
    Address peerAddress = peer.address();
    long peerUid = remoteOf(peer).uid();
    assertEquals(peerUid, fake.next(PeerEvent.Associated.class, peerAddress).uid());

    TestKit.shutdownActorSystem(peer); // it says it leaves

    assertEquals(peerUid, fake.next(PeerEvent.Disassociated.class, peerAddress).uid(), "the incarnation that left");
  }

  @Test
  void aWrappingProviderDeclaresAnAddressTerminated() throws Exception {
    FakeClusterProvider fake = fake();
    TestKit watcher = new TestKit(cluster);
    TestKit onPeer = new TestKit(peer);
    ActorRef there = associate(watcher, onPeer);
    Address peerAddress = peer.address();
    long peerUid = remoteOf(peer).uid();
    fake.next(PeerEvent.Associated.class, peerAddress);

    fake.remote.addressTerminated(peerAddress, "it left the membership");

    Terminated t = watcher.expectTerminated(WAIT, there);
    assertTrue(t.addressTerminated(), "Terminated after the address was declared terminated: " + t);
    PeerEvent.Quarantined q = fake.next(PeerEvent.Quarantined.class, peerAddress);
    assertEquals(peerUid, q.uid(), "the incarnation remoting quarantines with the address");
    assertTrue(q.reason().contains("it left the membership"), q.reason());

    TestKit later = new TestKit(cluster);
    later.watch(there);
    assertTrue(later.expectTerminated(WAIT, there).addressTerminated(), "a watch made afterwards hears it at once");
    there.tell("after the address was declared terminated", watcher.getRef());
    onPeer.expectNoMessage(Duration.ofMillis(300));
  }
}
