package dev.troupe.remote.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.remote.TestKeyStores;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TLS sessions under both lanes of a link, seen from the connecting side: TLS 1.3, the peer
 * authenticated by its certificate, and this node's own certificate sent (mutual authentication).
 * Without TLS a lane has no session.
 */
class TlsLaneTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  /** Does nothing but live. */
  public static final class Idle extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  @RegisterExtension
  static final ActorSystemExtension TROUPE =
      ActorSystemExtension.perClass(
          "troupe.actor.provider = remote\n"
              + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
              + "troupe.remote.canonical.port = 0\n");

  @TempDir static Path dir;

  static TestKeyStores stores;
  static ActorSystem a;
  static ActorSystem b;

  @BeforeAll
  static void nodes() throws Exception {
    stores = TestKeyStores.generate(dir);
    a = TROUPE.createSystem(stores.tls(stores.nodeA));
    b = TROUPE.createSystem(stores.tls(stores.nodeB));
    b.actorOf(Props.create(Idle.class), "idle");
  }

  @Test
  void bothLanesRunTls13WithBothEndsAuthenticated() throws Exception {
    ActorRef idle = a.actorSelection(b.address() + "/user/idle").resolveOne(WAIT).toCompletableFuture().join();
    TestKit probe = new TestKit(a);
    probe.watch(idle); // a watch goes on the control lane

    for (Lane lane : Lane.values()) {
      OutboundLane l = provider(a).association(b.address()).lane(lane);
      probe.awaitCond(WAIT, Duration.ofMillis(20), lane + " lane connected", () -> session(l) != null);
      SSLSession s = session(l);
      assertEquals("TLSv1.3", s.getProtocol(), lane + " lane");
      assertEquals("CN=node-b", s.getPeerPrincipal().getName(), "the peer proved it holds node-b's key");
      assertNotNull(s.getLocalCertificates(), "this node sent its own certificate (" + lane + " lane)");
      assertEquals("CN=node-a", s.getLocalPrincipal().getName());
    }
  }

  @Test
  void withoutTlsALaneHasNoSession() throws Exception {
    ActorSystem plain = TROUPE.system();
    ActorSystem other = TROUPE.createSystem("");
    other.actorOf(Props.create(Idle.class), "idle");
    plain.actorSelection(other.address() + "/user/idle").resolveOne(WAIT).toCompletableFuture().join();
    assertNull(session(provider(plain).association(other.address()).lane(Lane.ORDINARY)));
  }

  private static RemoteActorRefProvider provider(ActorSystem system) {
    return (RemoteActorRefProvider) ((RuntimeSystem) system).provider();
  }

  private static SSLSession session(OutboundLane lane) {
    try {
      return lane.loop().submit(lane::tlsSession).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new AssertionError("reading the " + lane + "'s session", e);
    }
  }
}
