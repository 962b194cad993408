package dev.troupe.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Remoting's per-peer meters, from its metrics view: exact message counts for a known workload
 * between two nodes on 127.0.0.1, bytes at least the payloads', and the phi of a watched node.
 */
class RemoteTrafficMetricsTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Duration REFRESH = Duration.ofMillis(20);
  private static final int N = 200;
  private static final String PAYLOAD = "x".repeat(300);
  private static final String REMOTE = """
      troupe.actor.provider = remote
      troupe.remote.canonical.hostname = "127.0.0.1"
      troupe.remote.canonical.port = 0
      """;

  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(REMOTE);

  /** Answers every message with the same message. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell(m, getSelf())).build();
    }
  }

  private static FunctionCounter counter(SimpleMeterRegistry r, String name, String peer) {
    return r.find(name).tags("peer", peer).functionCounter();
  }

  private static double count(SimpleMeterRegistry r, String name, String peer) {
    FunctionCounter c = counter(r, name, peer);
    return c == null ? -1 : c.count();
  }

  private static void await(TestKit kit, SimpleMeterRegistry r, String name, String peer, double expected) {
    kit.awaitCond(WAIT, Duration.ofMillis(10),
        name + "{peer=" + peer + "} to be " + expected + " (last " + count(r, name, peer) + ")",
        () -> count(r, name, peer) == expected);
  }

  @Test
  void messagesAndBytesToAndFromAPeerAreCountedExactlyWithThePeerTag() {
    ActorSystem a = troupe.system();
    ActorSystem b = troupe.createSystem(REMOTE);
    SimpleMeterRegistry onA = new SimpleMeterRegistry();
    SimpleMeterRegistry onB = new SimpleMeterRegistry();
    new TroupeMetrics(a, REFRESH).bindTo(onA);
    new TroupeMetrics(b, REFRESH).bindTo(onB);
    b.actorOf(Props.create(Echo.class, Echo::new), "echo");
    String echo = b.address() + "/user/echo";
    String peerB = b.address().toString();
    String peerA = a.address().toString();

    TestKit kit = new TestKit(a);
    for (int i = 0; i < N; i++) {
      a.actorSelection(echo).tell(PAYLOAD, kit.getRef()); // one envelope each way per message
    }
    for (int i = 0; i < N; i++) {
      kit.expectMsg(WAIT, PAYLOAD);
    }

    await(kit, onA, "troupe.remote.messages.sent", peerB, N);
    await(kit, onA, "troupe.remote.messages.received", peerB, N);
    await(kit, onB, "troupe.remote.messages.received", peerA, N);
    await(kit, onB, "troupe.remote.messages.sent", peerA, N);
    assertTrue(count(onA, "troupe.remote.bytes.sent", peerB) >= (double) N * PAYLOAD.length(),
        "bytes a sent to b, at least the payloads: " + count(onA, "troupe.remote.bytes.sent", peerB));
    assertTrue(count(onA, "troupe.remote.bytes.received", peerB) >= (double) N * PAYLOAD.length(),
        "bytes a received from b, at least the payloads: " + count(onA, "troupe.remote.bytes.received", peerB));
    assertTrue(count(onB, "troupe.remote.bytes.received", peerA) >= (double) N * PAYLOAD.length(),
        "bytes b received from a, at least the payloads");

    FunctionCounter sent = counter(onA, "troupe.remote.messages.sent", peerB);
    assertEquals(a.name(), sent.getId().getTag("system"), "system tag");
    for (Meter m : onA.getMeters()) {
      String name = m.getId().getName();
      if (name.startsWith("troupe.remote.messages.") || name.startsWith("troupe.remote.bytes.")) {
        assertEquals(peerB, m.getId().getTag("peer"), "the only peer of a: " + m.getId());
      }
    }
  }

  @Test
  void serializationTimeIsMeasuredOnlyWhenSwitchedOn() {
    String measured = REMOTE + "troupe.remote.advanced.measure-serialization = on\n";
    ActorSystem a = troupe.createSystem(measured);
    ActorSystem b = troupe.createSystem(measured);
    SimpleMeterRegistry onA = new SimpleMeterRegistry();
    SimpleMeterRegistry onB = new SimpleMeterRegistry();
    new TroupeMetrics(a, REFRESH).bindTo(onA);
    new TroupeMetrics(b, REFRESH).bindTo(onB);
    SimpleMeterRegistry plain = new SimpleMeterRegistry();
    new TroupeMetrics(troupe.system(), REFRESH).bindTo(plain);
    assertNull(plain.find("troupe.remote.serialization.time").meter(),
        "no serialization timer with measure-serialization = off (the default)");

    b.actorOf(Props.create(Echo.class, Echo::new), "echo");
    TestKit kit = new TestKit(a);
    for (int i = 0; i < N; i++) {
      a.actorSelection(b.address() + "/user/echo").tell(PAYLOAD, kit.getRef());
    }
    for (int i = 0; i < N; i++) {
      kit.expectMsg(WAIT, PAYLOAD);
    }
    FunctionTimer ser = onA.find("troupe.remote.serialization.time").functionTimer();
    FunctionTimer deser = onB.find("troupe.remote.deserialization.time").functionTimer();
    assertNotNull(ser, "troupe.remote.serialization.time on a");
    assertNotNull(deser, "troupe.remote.deserialization.time on b");
    assertEquals(N, ser.count(), "messages a serialized (each selection once)");
    assertEquals(N, deser.count(), "messages b deserialized");
    assertTrue(ser.totalTime(TimeUnit.NANOSECONDS) > 0, "time a spent serializing");
    assertTrue(deser.totalTime(TimeUnit.NANOSECONDS) > 0, "time b spent deserializing");
  }

  @Test
  void aWatchedNodeHasAPhiGauge() {
    ActorSystem a = troupe.system();
    ActorSystem b = troupe.createSystem(REMOTE);
    SimpleMeterRegistry onA = new SimpleMeterRegistry();
    new TroupeMetrics(a, REFRESH).bindTo(onA);
    b.actorOf(Props.create(Echo.class, Echo::new), "echo");
    String peerB = b.address().toString();
    TestKit kit = new TestKit(a);
    ActorRef echo = a.actorSelection(b.address() + "/user/echo").resolveOne(WAIT).toCompletableFuture().join();
    kit.watch(echo);

    kit.awaitCond(WAIT, Duration.ofMillis(10), "a troupe.remote.phi gauge for " + peerB,
        () -> onA.find("troupe.remote.phi").tags("peer", peerB).gauge() != null);
    Gauge phi = onA.find("troupe.remote.phi").tags("peer", peerB).gauge();
    assertNotNull(phi);
    assertFalse(Double.isNaN(phi.value()), "phi of a watched node is a number");
    assertTrue(phi.value() >= 0, "phi is not negative: " + phi.value());
  }
}
