package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestKit;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A remote node's start and end: its few network threads, all gone after termination; a port in
 * use and malformed {@code troupe.remote} values fail {@code ActorSystem.create} with a message
 * naming the address or the key, and leave no thread behind.
 */
class RemoteNodeLifecycleTest {
  private static final AtomicInteger NAMES = new AtomicInteger();

  @RegisterExtension
  static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(Nodes.REMOTE);

  @Test
  void aNodeRunsOneOrTwoNetworkThreadsNamedAfterItAndNoneOutliveIt() {
    ActorSystem a = TROUPE.system();
    ActorSystem b = ActorSystem.create("lifecycle-" + NAMES.incrementAndGet(), ConfigFactory.parseString(Nodes.REMOTE));
    try {
      b.actorOf(TestActors.echoActorProps("echo:"), "echo");
      TestKit probe = new TestKit(a);
      Nodes.lookup(a, b, "/user/echo").tell("hi", probe.getRef());
      probe.expectMsg(Nodes.WAIT, "echo:hi");

      Set<String> io = TestKit.liveThreads(b.name() + "-remote-io-");
      assertFalse(io.isEmpty(), "b's network threads are named after it");
      assertTrue(io.size() <= 2, "one or two network threads per system: " + io);
    } finally {
      TestKit.shutdownActorSystem(b);
    }
    new TestKit(a)
        .awaitCond(
            Nodes.WAIT,
            Duration.ofMillis(20),
            "no thread of " + b.name() + " after termination: " + TestKit.liveThreads(b.name() + "-"),
            () -> TestKit.liveThreads(b.name() + "-").isEmpty());
    assertEquals(
        Set.of(),
        TestKit.liveThreads("globalEventExecutor"),
        "Netty's process-wide thread (named after no system) was started");
  }

  @Test
  void aHostNameIsLookedUpOffTheNetworkThreadsAndAnUnknownOneDropsTheMessage() {
    ActorSystem a = TROUPE.system();
    String local = Nodes.REMOTE + "troupe.remote.canonical.hostname = \"localhost\"\n";
    ActorSystem b = ActorSystem.create("named-host-" + NAMES.incrementAndGet(), ConfigFactory.parseString(local));
    try {
      b.actorOf(TestActors.echoActorProps("echo:"), "echo");
      assertEquals("localhost", b.address().host().orElseThrow());
      TestKit probe = new TestKit(a);
      Nodes.lookup(a, b, "/user/echo").tell("by name", probe.getRef());
      probe.expectMsg(Nodes.WAIT, "echo:by name");
      assertFalse(
          TestKit.liveThreads(a.name() + "-remote-dns").isEmpty(), "the name was looked up on a's resolver thread");

      TestKit drops = new TestKit(a);
      a.eventStream().subscribe(drops.getRef(), Dropped.class);
      a.actorSelection("troupe://nobody@no-such-host.invalid:2552/user/x").tell("lost", probe.getRef());
      Dropped d = drops.expectMsgClass(Duration.ofSeconds(30), Dropped.class);
      assertTrue(String.valueOf(d.message()).contains("lost"), String.valueOf(d.message()));
      assertTrue(d.reason().contains("cannot resolve host no-such-host.invalid"), d.reason());
    } finally {
      TestKit.shutdownActorSystem(b);
    }
  }

  @Test
  void aPortInUseFailsCreateNamingTheAddressAndLeavesNoThreadBehind() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      String name = "taken-" + NAMES.incrementAndGet();
      ConfigurationException e =
          assertThrows(
              ConfigurationException.class,
              () ->
                  ActorSystem.create(
                      name, ConfigFactory.parseString(Nodes.REMOTE + "troupe.remote.canonical.port = " + port)));
      assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
      assertTrue(e.getMessage().contains("troupe.remote.canonical.port"), e.getMessage());
      new TestKit(TROUPE.system())
          .awaitCond(
              Nodes.WAIT,
              Duration.ofMillis(20),
              "no thread of " + name + " after the failed create: " + TestKit.liveThreads(name + "-"),
              () -> TestKit.liveThreads(name + "-").isEmpty());
    }
  }

  @Test
  void aMalformedSerializationSettingFailsCreateAndStopsTheNetworkThreads() {
    String name = "badbinding-" + NAMES.incrementAndGet();
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class,
            () ->
                ActorSystem.create(
                    name,
                    ConfigFactory.parseString(
                        Nodes.REMOTE + "troupe.serialization.bindings { \"com.example.Gone\" = jackson-cbor }")));
    assertTrue(e.getMessage().contains("troupe.serialization.bindings"), e.getMessage());
    new TestKit(TROUPE.system())
        .awaitCond(
            Nodes.WAIT,
            Duration.ofMillis(20),
            "no thread of " + name + " after the failed create: " + TestKit.liveThreads(name + "-"),
            () -> TestKit.liveThreads(name + "-").isEmpty());
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "troupe.remote.canonical.port | \"abc\"",
        "troupe.remote.canonical.port | 70000",
        "troupe.remote.canonical.port | \"\"",
        "troupe.remote.canonical.hostname | \"\"",
        "troupe.remote.canonical.hostname | \"a host\"",
        "troupe.remote.bind.port | -1",
        "troupe.remote.bind.port | \"x\"",
        "troupe.remote.maximum-frame-size | 10",
        "troupe.remote.maximum-frame-size | \"huge\"",
        "troupe.remote.maximum-large-frame-size | 10",
        "troupe.remote.maximum-large-frame-size | \"huge\"",
        "troupe.remote.large-message-destinations | [\"user/big/*\"]",
        "troupe.remote.large-message-destinations | [\"/user/big/\"]",
        "troupe.remote.large-message-destinations | \"/user/big/*\"",
        "troupe.remote.advanced.outbound-large-message-queue-size | 0",
        "troupe.remote.untrusted-mode | \"maybe\"",
        "troupe.remote.tls.enabled | \"maybe\"",
        "troupe.remote.tls.hostname-verification | \"sometimes\"",
        "troupe.remote.tls.verify-peer-origin | \"sometimes\"",
        "troupe.remote.advanced.event-loop-threads | -1",
        "troupe.remote.advanced.outbound-message-queue-size | 0",
        "troupe.remote.advanced.outbound-control-queue-size | \"many\"",
        "troupe.remote.advanced.inbound-selection-queue-size | 0",
        "troupe.remote.advanced.connection-timeout | 0s",
        "troupe.remote.advanced.handshake-timeout | \"soon\"",
        "troupe.remote.advanced.reconnect-min-backoff | -1s",
        "troupe.remote.advanced.reconnect-max-backoff | 1ms",
        "troupe.remote.advanced.reconnect-attempts | 0",
        "troupe.remote.advanced.shutdown-timeout | 0s",
        "troupe.remote.advanced.system-message-buffer-size | 0",
        "troupe.remote.advanced.system-message-resend-interval | \"often\"",
        "troupe.remote.advanced.give-up-system-message-after | 0s",
        "troupe.remote.trusted-selection-paths | [\"user/echo\"]",
        "troupe.remote.trusted-selection-paths | \"/user/echo\"",
      })
  void aMalformedValueFailsCreateNamingTheKey(String key, String value) {
    String name = "malformed-" + NAMES.incrementAndGet();
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class,
            () -> ActorSystem.create(name, ConfigFactory.parseString(Nodes.REMOTE + key + " = " + value)));
    assertTrue(e.getMessage().contains("'" + key + "'"), "names '" + key + "': " + e.getMessage());
    assertEquals(Set.of(), TestKit.liveThreads(name + "-remote-io-"), "no network thread was started");
  }
}
